package dev.rea.core.internal.auth;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Finds the REA home directory that holds the provider's signing key and the trusted public keys
 * (CONTRACT section 5): {@code $REA_HOME} when set and non-empty; else {@code
 * $XDG_CONFIG_HOME/rea} when {@code XDG_CONFIG_HOME} is set to an absolute path (the XDG Base
 * Directory specification says relative values are ignored); else {@code ~/.config/rea}. A
 * relative {@code REA_HOME} is resolved against the working directory.
 *
 * <p>The environment is a parameter so that tests and embedders can point REA at a temporary
 * directory. Nothing is created here; see {@link KeyRing#open(Path)}.
 */
public final class ReaHome {
  /** Environment variable naming the REA home directory. */
  public static final String REA_HOME = "REA_HOME";

  /** XDG configuration base directory variable. */
  public static final String XDG_CONFIG_HOME = "XDG_CONFIG_HOME";

  private ReaHome() {}

  /**
   * Resolves the home directory.
   *
   * @param env environment variables (e.g. {@link System#getenv()})
   * @param userHome the account's home directory (e.g. {@code System.getProperty("user.home")}),
   *     used only when neither variable applies and {@code HOME} is unset or not absolute
   * @return an absolute, normalized path
   */
  public static Path resolve(Map<String, String> env, Path userHome) {
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(userHome, "userHome");
    String rea = env.get(REA_HOME);
    if (rea != null && !rea.isEmpty()) {
      return Path.of(rea).toAbsolutePath().normalize();
    }
    String xdg = env.get(XDG_CONFIG_HOME);
    if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg).resolve("rea").normalize();
    }
    // "~" is $HOME when it is set (as a shell expands it), else the account's home directory.
    String home = env.get("HOME");
    Path base = home != null && !home.isEmpty() && Path.of(home).isAbsolute() ? Path.of(home) : userHome;
    return base.toAbsolutePath().resolve(".config").resolve("rea").normalize();
  }

  /** @return {@link #resolve(Map, Path)} for this process's environment and user home */
  public static Path resolveFromSystem() {
    return resolve(System.getenv(), Path.of(System.getProperty("user.home")));
  }
}
