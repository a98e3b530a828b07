package dev.rea.core.hostile;

import static dev.rea.core.internal.format.gguf.GgufBuilder.nested;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.strBytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsReads;
import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.options.Limits;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Every limit refusal of both readers says which limit it hit and by how much (issue 6;
 * specification, "Bounds and unsupported inputs"; CONTRACT sections 6 and 8): {@code
 * diagnostics.limit} names the limit, {@code limit_bytes}/{@code limit_levels} its value, {@code
 * requested_bytes}/{@code requested_levels} what the file asked for, and {@code over_bytes} the
 * excess; the message states the same numbers. A header within the ceiling whose retained rows
 * would exceed the 32 MiB budget (a 40 MB chat template; a 40 MB {@code __metadata__} value) is
 * {@code resource_exhausted} / {@code retained_budget}, refused before the string is built.
 */
class LimitRefusalsTest {
  private static final long BUDGET = Limits.DEFAULT_RETAINED_BUDGET_BYTES;

  private static void assertBytesRefusal(ReaException e, Constraint c, long limit, long requested) {
    assertThat(e.constraint()).isEqualTo(c);
    assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(e.diagnostics())
        .containsEntry("limit", c.wireName())
        .containsEntry("limit_bytes", Long.toString(limit))
        .containsEntry("requested_bytes", Long.toString(requested))
        .containsKey("over_bytes");
    long over = Long.parseLong((String) e.diagnostics().get("over_bytes"));
    assertThat(over).isPositive();
    assertThat(e.getMessage()).contains(Long.toString(limit));
    assertThat(e.field()).isNotBlank();
    assertThat(e.offset()).isNotNull();
  }

  private static byte[] fortyMegabytes() {
    byte[] b = new byte[40_000_000];
    Arrays.fill(b, (byte) '{');
    return b;
  }

  @Test
  void ggufFortyMegabyteChatTemplateIsARetainedBudgetRefusal() {
    byte[] template = fortyMegabytes();
    GgufBuilder.Built b =
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .kv("tokenizer.chat_template", strBytes(template))
            .tensor("t", 0, 8)
            .build();
    assertThat((long) b.bytes().length).isLessThan(Limits.DEFAULT_HEADER_CEILING_BYTES);
    ReaException e = GgufTesting.reject(b.bytes());
    // The charge is the string's bytes plus the fixed per-value overhead.
    assertBytesRefusal(e, Constraint.RETAINED_BUDGET, BUDGET, template.length + RetainedBudget.VALUE_OVERHEAD);
    assertThat(e.field()).isEqualTo("metadata[1].value");
    assertThat(Long.parseLong((String) e.diagnostics().get("over_bytes")))
        .isEqualTo(Long.parseLong((String) e.diagnostics().get("used_bytes"))
            + template.length + RetainedBudget.VALUE_OVERHEAD - BUDGET);
  }

  @Test
  void safetensorsFortyMegabyteMetadataValueIsARetainedBudgetRefusal() {
    String value = new String(fortyMegabytes(), java.nio.charset.StandardCharsets.US_ASCII);
    byte[] file = SafetensorsBuilder.builder().metadata("chat_template", value).tensor("t", "F32", 2).build();
    ReaException e = SafetensorsReads.reject(file, Limits.defaults());
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.diagnostics()).containsEntry("limit", "retained_budget")
        .containsEntry("limit_bytes", Long.toString(BUDGET))
        .containsKey("requested_bytes")
        .containsKey("over_bytes");
    assertThat(Long.parseLong((String) e.diagnostics().get("requested_bytes")))
        .isGreaterThanOrEqualTo(value.length());
    assertThat(Long.parseLong((String) e.diagnostics().get("over_bytes"))).isPositive();
    assertThat(e.field()).contains("__metadata__");
  }

  @Test
  void headerCeilingRefusalsSayByHowMuchInBothReaders() {
    Limits small = Limits.builder().headerCeilingBytes(1000).build();
    byte[] s = new byte[2000];
    Arrays.fill(s, (byte) 'a');
    GgufBuilder.Built g = GgufBuilder.v3().kv("k", strBytes(s)).build();
    long end = g.at("metadata[0].value") + 8 + 2000;
    ReaException ge = GgufTesting.rejectWith(g.bytes(), small);
    assertBytesRefusal(ge, Constraint.HEADER_CEILING, 1000, end);
    assertThat(ge.diagnostics()).containsEntry("over_bytes", Long.toString(end - 1000));

    byte[] st = SafetensorsBuilder.builder().metadata("k", new String(s, java.nio.charset.StandardCharsets.US_ASCII)).build();
    long n = st.length - 8;
    ReaException se = SafetensorsReads.reject(st, small);
    assertBytesRefusal(se, Constraint.HEADER_CEILING, 1000, n);
    assertThat(se.diagnostics()).containsEntry("over_bytes", Long.toString(n - 1000));
    assertThat(se.field()).isEqualTo("json_length");
  }

  @Test
  void nestingRefusalsNameTheLimitAndTheLevelInBothReaders() {
    ReaException ge = GgufTesting.reject(GgufBuilder.v3().kv("n", nested(33)).bytes());
    assertThat(ge.constraint()).isEqualTo(Constraint.NESTING_LIMIT);
    assertThat(ge.diagnostics())
        .containsEntry("limit", "nesting_limit")
        .containsEntry("limit_levels", 32)
        .containsEntry("requested_levels", 33);
    // The top-level object is level 1, the tensor entry level 2, then 31 arrays: level 33.
    byte[] st =
        SafetensorsBuilder.file(
            "{\"t\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":"
                + "[".repeat(31) + "]".repeat(31) + "}}",
            1);
    ReaException se = SafetensorsReads.reject(st, Limits.defaults());
    assertThat(se.constraint()).isEqualTo(Constraint.NESTING_LIMIT);
    assertThat(se.diagnostics())
        .containsEntry("limit", "nesting_limit")
        .containsEntry("limit_levels", 32)
        .containsEntry("requested_levels", 33);
  }
}
