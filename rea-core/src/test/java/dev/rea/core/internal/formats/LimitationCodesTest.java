package dev.rea.core.internal.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.CheckPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every limitation code a record may carry is one {@code rea check --allow} accepts and SARIF
 * describes ({@link SarifRules#limitationCodes}): a code missing there would fail {@code --fail-on
 * limitations} with nothing able to allow it. The codes are found where the sources make
 * limitations ({@code new Limitation("code"}) and in the constants that name them.
 */
class LimitationCodesTest {
  @Test
  void everyLimitationCodeInTheSourcesCanBeAllowed() throws IOException {
    Set<String> made = new TreeSet<>();
    Pattern literal = Pattern.compile("new Limitation\\(\\s*\"([a-z0-9_]+)\"");
    Pattern constant =
        Pattern.compile("String (?:LIMITATION_[A-Z0-9_]+|LAYOUT_ASSUMED) = \"([a-z0-9_]+)\"");
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        String text = Files.readString(f);
        for (Pattern p : new Pattern[] {literal, constant}) {
          Matcher m = p.matcher(text);
          while (m.find()) {
            made.add(m.group(1));
          }
        }
      }
    }
    assertThat(made)
        .contains("unknown_dtype", "partial_header", "layout_assumed", "k_quant_layout_ambiguous")
        .hasSizeGreaterThanOrEqualTo(7);
    assertThat(CheckPolicy.limitationCodes()).containsExactlyInAnyOrderElementsOf(made);
    for (String code : made) {
      assertThat(SarifRules.describe(code)).as(code).doesNotStartWith("REA reported");
    }
  }
}
