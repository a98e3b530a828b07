package dev.rea.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/bench --help}: its {@code Usage:} lines name every option the script accepts
 * (they once left out {@code --out} and {@code --nice}, which only the list below them named).
 */
class BenchScriptHelpTest {
  /** The script, from the module directory Maven runs tests in. */
  private static final Path SCRIPT = Path.of("..", "scripts", "bench");

  @Test
  void theUsageLinesNameEveryOptionTheScriptAccepts() throws Exception {
    // The options of the argument loop: lines such as "    --out) OUT=$2; shift 2 ;;".
    List<String> accepted = new ArrayList<>();
    Matcher m =
        Pattern.compile("(?m)^ {4}(--[a-z-]+)\\)").matcher(Files.readString(SCRIPT));
    while (m.find()) {
      accepted.add(m.group(1));
    }
    assertThat(accepted).contains("--dir", "--long", "--out", "--nice");

    Process p =
        new ProcessBuilder("sh", SCRIPT.toString(), "--help").redirectErrorStream(true).start();
    String help = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(help).isZero();
    // The Usage: line and the lines that continue it, up to the option list ("  --dir DIR ...").
    int start = help.indexOf("Usage: scripts/bench");
    assertThat(start).as(help).isNotNegative();
    int end = help.indexOf("\n  --", start);
    String usage = help.substring(start, end);
    for (String option : accepted) {
      assertThat(usage).as("the Usage: lines name %s", option).contains("[" + option);
    }
    // The list below names each of them too, and the help ends where the comment block does.
    for (String option : accepted) {
      assertThat(help.substring(end)).contains("  " + option);
    }
    assertThat(help.strip()).endsWith("Installs nothing.");
  }
}
