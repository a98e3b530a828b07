package dev.rea.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The file-name rules {@link ModelUnits} gives front ends (CONTRACT section 9). */
class ModelUnitsNameTest {
  @Test
  void shardNamesAreSavePretrainedsOfTwoOrMore() {
    assertThat(ModelUnits.isShardName("model-00001-of-00003.safetensors")).isTrue();
    assertThat(ModelUnits.isShardName("model-00003-of-00003.safetensors")).isTrue();
    assertThat(ModelUnits.isShardName("model-00001-of-00001.safetensors")).isFalse();
    assertThat(ModelUnits.isShardName("model-00004-of-00003.safetensors")).isFalse();
    assertThat(ModelUnits.isShardName("model-00000-of-00003.safetensors")).isFalse();
    assertThat(ModelUnits.isShardName("-00001-of-00003.safetensors")).isFalse();
    assertThat(ModelUnits.isShardName("model-0001-of-0003.safetensors")).isFalse();
    assertThat(ModelUnits.isShardName("model-00001-of-00003.gguf")).isFalse();
    assertThat(ModelUnits.isSplitName("model-00001-of-00003.gguf")).isTrue();
  }
}
