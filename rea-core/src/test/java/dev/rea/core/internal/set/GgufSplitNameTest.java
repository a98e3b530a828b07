package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Split member names as llama.cpp's llama_split_path writes them ("%s-%05d-of-%05d.gguf"). */
class GgufSplitNameTest {
  @Test
  void parsesAndFormatsAsGgufSplitDoes() {
    GgufSplitName s = GgufSplitName.parse("Qwen3-30B-A3B-BF16-00002-of-00003.gguf");
    assertThat(s).isNotNull();
    assertThat(s.prefix()).isEqualTo("Qwen3-30B-A3B-BF16");
    assertThat(s.number()).isEqualTo(2);
    assertThat(s.count()).isEqualTo(3);
    assertThat(s.first()).isEqualTo("Qwen3-30B-A3B-BF16-00001-of-00003.gguf");
    assertThat(s.member(3)).isEqualTo("Qwen3-30B-A3B-BF16-00003-of-00003.gguf");
    assertThat(s.fileName()).isEqualTo("Qwen3-30B-A3B-BF16-00002-of-00003.gguf");
    assertThat(GgufSplitName.parse("m-99999-of-99999.gguf").count()).isEqualTo(99_999);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "model.gguf",
        "-00001-of-00003.gguf",
        "m-00000-of-00003.gguf",
        "m-00004-of-00003.gguf",
        "m-00001-of-00000.gguf",
        "m-0001-of-00003.gguf",
        "m-000001-of-00003.gguf",
        "m-00001-of-0003.gguf",
        "m-00001-of-00003.GGUF",
        "m-00001-0f-00003.gguf",
        "m-0000a-of-00003.gguf",
        "m_00001-of-00003.gguf",
        "m-00001-of-00003.gguf.part"
      })
  void otherNamesAreNotMembers(String name) {
    assertThat(GgufSplitName.parse(name)).isNull();
  }
}
