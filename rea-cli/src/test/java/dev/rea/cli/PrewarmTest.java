package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The start-up warm-up runs every step, and only for the commands that profit from it. */
class PrewarmTest {
  @Test
  void warmUpCanonicalizesAndSignsWithoutFailing() {
    assertThat(Prewarm.run()).isTrue();
  }

  @Test
  void startsOnlyForEvidenceCommandsOnMoreThanOneCore() {
    String[] inspect = {"inspect-model-artifact", "model.gguf", "--json"};
    String[] view = {"inspect-analysis-view", "--evidence", "e.json", "--view", "{}"};
    assertThat(Prewarm.worthIt(inspect, 2)).isTrue();
    assertThat(Prewarm.worthIt(view, 4)).isTrue();
    assertThat(Prewarm.worthIt(inspect, 1)).isFalse();
    assertThat(Prewarm.worthIt(new String[] {"mcp"}, 2)).isFalse();
    assertThat(Prewarm.worthIt(new String[] {"--version"}, 2)).isFalse();
    assertThat(Prewarm.worthIt(new String[0], 2)).isFalse();
  }
}
