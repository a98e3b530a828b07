package dev.rea.core.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * Jackson's reasons as REA words them: no location descriptions of Jackson's own (REA gives the
 * byte offset itself), one line, and the rest of Jackson's wording kept.
 */
class JacksonReasonsTest {
  private static JacksonException failureOf(String json) {
    JsonFactory f = JsonFactory.builder().disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION).build();
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    return catchThrowableOfType(
        JacksonException.class,
        () -> {
          try (JsonParser p = f.createParser(ObjectReadContext.empty(), b, 0, b.length)) {
            while (p.nextToken() != null) {
              // read to the end or the failure
            }
          }
        });
  }

  @Test
  void anUnclosedArrayOrObjectLosesJacksonsStartMarkerLocation() {
    JacksonException e = failureOf("{\"a\":[1,2");
    assertThat(e.getOriginalMessage()).contains("start marker at [Source: REDACTED");
    assertThat(JacksonReasons.of(e))
        .isEqualTo("Unexpected end-of-input: expected close marker for Array");
    assertThat(JacksonReasons.of(failureOf("{\"a\":1")))
        .isEqualTo("Unexpected end-of-input: expected close marker for Object");
  }

  @Test
  void aLimitLosesTheJacksonApiItComesFrom() {
    JsonFactory f =
        JsonFactory.builder()
            .streamReadConstraints(
                tools.jackson.core.StreamReadConstraints.builder().maxNestingDepth(3).build())
            .build();
    byte[] b = "[[[[[1]]]]]".getBytes(StandardCharsets.UTF_8);
    JacksonException e =
        catchThrowableOfType(
            JacksonException.class,
            () -> {
              try (JsonParser p = f.createParser(ObjectReadContext.empty(), b, 0, b.length)) {
                while (p.nextToken() != null) {
                  // read to the failure
                }
              }
            });
    assertThat(e.getOriginalMessage()).contains("StreamReadConstraints");
    assertThat(JacksonReasons.of(e))
        .isEqualTo("Document nesting depth (4) exceeds the maximum allowed (3)");
  }

  @Test
  void aReasonWithoutLocationsIsKeptAsJacksonWordedIt() {
    JacksonException e = failureOf("{\"a\":tru}");
    assertThat(e.getOriginalMessage()).doesNotContain("[Source");
    assertThat(JacksonReasons.of(e)).isEqualTo(e.getOriginalMessage().replace('\n', ' ').strip());
    assertThat(JacksonReasons.of(e)).startsWith("Unrecognized token 'tru'");
  }
}
