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
 * Every warning code a record may carry is one {@code rea check --allow} accepts and SARIF
 * describes ({@link SarifRules#warningCodes}): a code missing there fails a check that nothing
 * can allow. The codes are found where the sources make warnings ({@code new Warning("code"}) and
 * in the constants that name them.
 */
class WarningCodesTest {
  /** A view page's warnings about its own rows: never a record's, so never checked. */
  private static final Set<String> VIEW_ONLY = Set.of("unmatched_selection", "row_omitted");

  /**
   * @param patterns patterns whose group 1 is a code
   * @return every code the patterns find in the main sources
   */
  static Set<String> codesInSources(Pattern... patterns) throws IOException {
    Set<String> made = new TreeSet<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        String text = Files.readString(f);
        for (Pattern p : patterns) {
          Matcher m = p.matcher(text);
          while (m.find()) {
            made.add(m.group(1));
          }
        }
      }
    }
    return made;
  }

  @Test
  void everyWarningCodeInTheSourcesCanBeAllowed() throws IOException {
    Set<String> made =
        codesInSources(
            Pattern.compile("new Warning\\(\\s*\"([a-z_]+)\""),
            Pattern.compile(
                "String (?:WARNING_[A-Z_]+|TRUNCATED|OVERLAP[A-Z_]*) = \"([a-z_]+)\""));
    made.removeAll(VIEW_ONLY);
    assertThat(made)
        .contains("shard_without_index", "split_member_alone", "removed_type", "unknown_type_id")
        .hasSizeGreaterThanOrEqualTo(7);
    assertThat(CheckPolicy.warningCodes()).containsAll(made);
  }
}
