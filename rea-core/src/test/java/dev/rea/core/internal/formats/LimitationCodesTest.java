package dev.rea.core.internal.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.CheckPolicy;
import java.io.IOException;
import java.util.Set;
import java.util.regex.Pattern;
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
    Set<String> made =
        WarningCodesTest.codesInSources(
            Pattern.compile("new Limitation\\(\\s*\"([a-z0-9_]+)\""),
            Pattern.compile(
                "String (?:LIMITATION_[A-Z0-9_]+|LAYOUT_ASSUMED) = \"([a-z0-9_]+)\""));
    assertThat(made)
        .contains("unknown_dtype", "partial_header", "layout_assumed", "k_quant_layout_ambiguous")
        .hasSizeGreaterThanOrEqualTo(7);
    assertThat(CheckPolicy.limitationCodes()).containsExactlyInAnyOrderElementsOf(made);
    for (String code : made) {
      assertThat(SarifRules.describe(code)).as(code).doesNotStartWith("REA reported");
    }
  }
}
