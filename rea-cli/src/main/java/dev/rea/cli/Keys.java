package dev.rea.cli;

import dev.rea.core.Rea;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** What the user hears about the provider's key pair in the REA home directory. */
final class Keys {
  private Keys() {}

  /**
   * @param err where to say it (nothing is said when null)
   * @return notices that say on {@code err} that a new key pair was created (and which public key
   *     to share), and what is wrong with the key ring (skipped trusted keys, permissions that
   *     let others replace the key)
   */
  static Rea.KeyNotices notices(@Nullable PrintWriter err) {
    return new Rea.KeyNotices() {
      @Override
      public void created(Path home, Path publicKeyFile) {
        if (err != null) {
          err.println(
              "rea: created a signing key pair in "
                  + home
                  + " (share "
                  + publicKeyFile
                  + " with whoever should trust your Evidence)");
          err.flush();
        }
      }

      @Override
      public void problem(String problem) {
        if (err != null) {
          err.println("rea: warning: " + TerminalText.printable(problem));
          err.flush();
        }
      }
    };
  }
}
