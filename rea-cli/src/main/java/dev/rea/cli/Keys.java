package dev.rea.cli;

import dev.rea.core.error.ReaException;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.auth.ReaHome;
import java.nio.file.Path;
import java.util.Map;

/** The provider's key ring in the REA home directory the environment selects. */
final class Keys {
  private Keys() {}

  /**
   * Opens (creating on first use) the key ring of {@code $REA_HOME}, else {@code
   * $XDG_CONFIG_HOME/rea}, else {@code ~/.config/rea}, saying on {@code err} (when given) that a
   * new key pair was created and what is wrong with the ring (skipped keys, wide permissions).
   *
   * @throws ReaException {@code execution_failure} / {@code io_error} when the home directory or
   *     key cannot be created or read
   */
  static KeyRing ring(Map<String, String> env, java.io.PrintWriter err) throws ReaException {
    KeyRing ring = KeyRing.open(home(env));
    if (ring.created() && err != null) {
      err.println(
          "rea: created a signing key pair in "
              + ring.home()
              + " (share "
              + ring.home().resolve(KeyRing.PUBLIC_KEY_FILE)
              + " with whoever should trust your Evidence)");
      err.flush();
    }
    warnAbout(ring, err);
    return ring;
  }

  /**
   * Opens the same key ring for verifying only ({@link KeyRing#openForReading}): nothing is
   * created or written, so a command that only reads Evidence leaves no key pair behind. Problems
   * with the ring are said on {@code err} as for {@link #ring}.
   *
   * @throws ReaException {@code execution_failure} / {@code io_error} when an existing key file
   *     or directory cannot be read
   */
  static KeyRing readingRing(Map<String, String> env, java.io.PrintWriter err) throws ReaException {
    KeyRing ring = KeyRing.openForReading(home(env));
    warnAbout(ring, err);
    return ring;
  }

  /** Skipped trusted keys and unsafe permissions: the user should hear of them. */
  private static void warnAbout(KeyRing ring, java.io.PrintWriter err) {
    if (err != null && !ring.problems().isEmpty()) {
      for (String problem : ring.problems()) {
        err.println("rea: warning: " + TerminalText.printable(problem));
      }
      err.flush();
    }
  }

  private static Path home(Map<String, String> env) {
    return ReaHome.resolve(env, Path.of(System.getProperty("user.home")));
  }
}
