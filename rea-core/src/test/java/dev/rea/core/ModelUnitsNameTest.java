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

  /** The rule the set-of-one warnings follow, read from a record as a front end has it. */
  @Test
  void aLoneMemberIsAShardByNameOrAFileDeclaringASplit() {
    dev.rea.core.evidence.EvidenceRecord plain = dev.rea.core.testing.TestRecords.manyTensors(1);
    assertThat(ModelUnits.isLoneMember("model.gguf", plain)).isFalse();
    // A GGUF record is never a shard by name: the name rule is safetensors'.
    assertThat(ModelUnits.isLoneMember("model-00001-of-00003.safetensors", plain)).isFalse();
  }
}
