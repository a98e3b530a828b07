package dev.rea.cli;

import java.io.PrintWriter;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Runs the most common command lines without building picocli's command model, which costs
 * about 0.1 to 0.16 s of a 0.45 s run on a two-core machine (its classes are class-file version
 * 49, which the launcher's class-data sharing archive cannot hold, and the model is built by
 * reflection over every subcommand; docs/performance.md).
 *
 * <p>Accepted, exactly: {@code inspect-model-artifact PATH} followed by any of {@code --json} and
 * {@code --hash header|--hash full}, each at most once, in any order, where {@code PATH} does
 * not start with {@code -} or {@code @} (picocli reads {@code @FILE} as an argument file). The
 * command then runs as {@link InspectCommand#run} with the fields picocli would set: the same
 * defaults ({@link InspectCommand#DEFAULT_HASH}, {@link InspectCommand#DEFAULT_MAX_TENSOR_ROWS}),
 * the same environment, and the same handling of a defect (exit status 70 with {@code rea:
 * internal error}). Everything else, including {@code --hash=full}, help and every other option,
 * goes through picocli ({@link ReaMain#run}). {@code FastPathTest} checks both paths agree.
 */
final class FastPath {
  private FastPath() {}

  /**
   * @return the command to run, fields set, or null when the arguments are not in the accepted
   *     form
   */
  static @Nullable InspectCommand parse(String[] args) {
    if (args.length < 2 || !args[0].equals("inspect-model-artifact")) {
      return null;
    }
    String path = null;
    boolean json = false;
    String hash = null;
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--json")) {
        if (json) {
          return null;
        }
        json = true;
      } else if (a.equals("--hash")) {
        if (hash != null || i + 1 >= args.length) {
          return null;
        }
        String v = args[++i];
        if (!v.equals("header") && !v.equals("full")) {
          return null;
        }
        hash = v;
      } else if (a.isEmpty() || a.startsWith("-") || a.startsWith("@") || path != null) {
        return null;
      } else {
        path = a;
      }
    }
    if (path == null) {
      return null;
    }
    InspectCommand c = new InspectCommand();
    c.path = path;
    c.json = json;
    c.hash = hash == null ? InspectCommand.DEFAULT_HASH : hash;
    c.maxTensorRows = InspectCommand.DEFAULT_MAX_TENSOR_ROWS;
    return c;
  }

  /**
   * Runs the arguments when they are in the accepted form.
   *
   * @return the exit status, or null when picocli must run them
   */
  static @Nullable Integer tryRun(
      String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
    InspectCommand c = parse(args);
    if (c == null) {
      return null;
    }
    c.environment(Map.copyOf(env));
    try {
      return c.run(out, err);
    } catch (RuntimeException e) {
      // As ReaMain's execution exception handler: only defects reach here.
      err.println("rea: internal error: " + e);
      e.printStackTrace(err);
      return 70;
    }
  }
}
