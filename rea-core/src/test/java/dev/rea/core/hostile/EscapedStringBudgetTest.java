package dev.rea.core.hostile;

import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.strBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.RecordSize;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsReads;
import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.BudgetedInspection.Outcome;
import dev.rea.core.testing.BudgetedInspection;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retained budget charges strings at their JSON-escaped size, so a header of control bytes
 * cannot pass the 32 MiB budget and then become a record six times larger (the adversarial
 * repro: one GGUF STRING of 33,000,000 bytes of 0x01, whose JSON form is 198,000,000 bytes). Both
 * readers refuse such strings with {@code resource_exhausted} / {@code retained_budget}, naming
 * the field and the offset of the string, before the string is built; strings that fit give a
 * signed bundle no longer than the budget.
 */
class EscapedStringBudgetTest {
  private static final Path PATH = Path.of("/models/ctrl.gguf");
  private static EvidenceSigner signer;

  @TempDir static Path home;

  @BeforeAll
  static void keys() throws ReaException {
    signer = new EvidenceSigner(KeyRing.open(home.resolve("rea")));
  }

  private static byte[] filled(int n, byte b) {
    byte[] s = new byte[n];
    Arrays.fill(s, b);
    return s;
  }

  private static void assertBudgetRefusal(ReaException e, String field, long offset) {
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(e.code().wireName()).isEqualTo("resource_exhausted");
    assertThat(e.category().wireName()).isEqualTo("resource_limit");
    assertThat(e.field()).isEqualTo(field);
    assertThat(e.offset()).isEqualTo(offset);
    assertThat(e.diagnostics()).containsEntry("limit", "retained_budget");
    assertThat(Long.parseLong((String) e.diagnostics().get("over_bytes"))).isPositive();
  }

  @Test
  void theReproStringOfThirtyThreeMillionControlBytesIsRefusedAtItsField() {
    // The adversarial tester's file: GGUF v3, no tensors, one KV "a.b" = STRING of 33,000,000
    // bytes of 0x01. Raw, it fits the 32 MiB budget (33,554,432); escaped it is 198,000,000.
    byte[] value = filled(33_000_000, (byte) 1);
    GgufBuilder.Built b =
        GgufBuilder.v3().kv("a.b", strBytes(value)).data(GgufBuilder.Data.NONE).build();
    assertThat(b.bytes()).hasSize(33_000_047);
    long stringAt = b.at("metadata[0].value") + 8;
    // magic, version, two counts (24), key length and "a.b" (11), value type (4), string length (8)
    assertThat(stringAt).isEqualTo(47L);

    // Through the inspector (as the CLI runs it): refused, never built.
    assertThatThrownBy(() -> BudgetedInspection.inspect(b.bytes(), PATH, Limits.defaults(), signer))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertBudgetRefusal(e, "metadata[0].value", stringAt);
          long limit = Limits.DEFAULT_RETAINED_BUDGET_BYTES;
          assertThat(e.diagnostics()).containsEntry("limit_bytes", Long.toString(limit));
          // The string as a whole: its raw bytes and overhead at least, plus escapes found so far.
          long requested = Long.parseLong((String) e.diagnostics().get("requested_bytes"));
          long used = Long.parseLong((String) e.diagnostics().get("used_bytes"));
          assertThat(requested).isGreaterThan(33_000_000L + RetainedBudget.VALUE_OVERHEAD);
          assertThat(used + requested).isGreaterThan(limit);
          assertThat(e.getMessage()).contains("metadata[0].value").contains("JSON escapes");
        });

    // The reader alone refuses it too (same field and offset).
    ReaException direct = GgufTesting.reject(b.bytes());
    assertBudgetRefusal(direct, "metadata[0].value", stringAt);
  }

  @Test
  void escapesCountAtTheirWrittenLengthInGgufStrings() throws ReaException {
    Limits oneMiB = Limits.builder().retainedBudgetBytes(1 << 20).build();
    // 100,000 control bytes: 600,000 bytes of JSON; fits 1 MiB, and so does the whole bundle.
    GgufBuilder.Built fits = GgufBuilder.v3().kv("k", strBytes(filled(100_000, (byte) 1))).tensor("t", 0, 8).build();
    Outcome o = BudgetedInspection.inspect(fits.bytes(), PATH, oneMiB, signer);
    assertThat((long) o.bundle().length).isGreaterThan(600_000L).isLessThanOrEqualTo(o.used());
    assertThat(o.used()).isLessThanOrEqualTo(1 << 20);
    // 200,000 raw bytes fit 1 MiB, their 1,200,000-byte JSON does not.
    for (byte escaped : new byte[] {1, 0x1f, 0}) {
      GgufBuilder.Built over =
          GgufBuilder.v3().kv("k", str("x")).kv("k2", strBytes(filled(200_000, escaped))).build();
      ReaException e = GgufTesting.rejectWith(over.bytes(), oneMiB);
      assertBudgetRefusal(e, "metadata[1].value", over.at("metadata[1].value") + 8);
    }
    // Quotes, backslashes and the short escapes cost two bytes each: 600,000 of them (1.2 MB of
    // JSON) are refused, 400,000 (800 KB) fit.
    byte[] mixed = new byte[600_000];
    byte[] shortEscapes = {'"', '\\', '\n', '\t', '\r', '\b', '\f'};
    for (int i = 0; i < mixed.length; i++) {
      mixed[i] = shortEscapes[i % shortEscapes.length];
    }
    GgufBuilder.Built twice = GgufBuilder.v3().kv("k", strBytes(mixed)).build();
    assertBudgetRefusal(GgufTesting.rejectWith(twice.bytes(), oneMiB), "metadata[0].value",
        twice.at("metadata[0].value") + 8);
    GgufBuilder.Built fewer = GgufBuilder.v3().kv("k", strBytes(Arrays.copyOf(mixed, 400_000))).build();
    Outcome f = BudgetedInspection.inspect(fewer.bytes(), PATH, oneMiB, signer);
    assertThat((long) f.bundle().length).isGreaterThan(800_000L).isLessThanOrEqualTo(f.used());
    // Plain text is charged at its length: 1,000,000 bytes of it are refused only by the
    // budget's last bytes, so 900,000 fit.
    GgufBuilder.Built plain = GgufBuilder.v3().kv("k", strBytes(filled(900_000, (byte) 'a'))).build();
    Outcome p = BudgetedInspection.inspect(plain.bytes(), PATH, oneMiB, signer);
    assertThat((long) p.bundle().length).isBetween(900_000L, p.used());
  }

  @Test
  void escapesInPreviewElementsAndTensorNamesAreCharged() {
    Limits small = Limits.builder().retainedBudgetBytes(64 * 1024).build();
    // Eight preview strings of 2,000 control bytes: 96,000 bytes of JSON; each is charged 12,064,
    // so element 5 (the sixth) no longer fits 64 KiB.
    GgufBuilder.Value[] elements = new GgufBuilder.Value[8];
    for (int i = 0; i < 8; i++) {
      elements[i] = strBytes(filled(2_000, (byte) 2));
    }
    GgufBuilder.Built arr = GgufBuilder.v3().kv("a", GgufBuilder.array(GgufBuilder.STRING, elements)).build();
    ReaException e = GgufTesting.rejectWith(arr.bytes(), small);
    assertBudgetRefusal(e, "metadata[0].value[5]", arr.at("metadata[0].value[5]") + 8);

    // 300 tensors named with 64 control bytes: 384 bytes of JSON per name.
    GgufBuilder names = GgufBuilder.v3();
    for (int i = 0; i < 300; i++) {
      byte[] name = filled(64, (byte) 3);
      name[0] = (byte) ('a' + i % 26);
      name[1] = (byte) ('a' + i / 26);
      names.tensor(new GgufBuilder.Tensor("", 0, 1).nameBytes(name));
    }
    GgufBuilder.Built nb = names.build();
    ReaException ne = GgufTesting.rejectWith(nb.bytes(), small);
    assertThat(ne.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(ne.field()).matches("tensor\\[\\d+\\](\\.name|\\.type)?");
    int t = Integer.parseInt(ne.field().replaceAll("tensor\\[(\\d+)\\].*", "$1"));
    // 64 KiB holds fewer than 130 such rows (each at least 160 + 384 + 64 bytes charged), so the
    // refusal comes before the 130th tensor.
    assertThat(t).isBetween(60, 130);
    assertThat(ne.offset()).isBetween(nb.at("tensor[" + t + "].name"), nb.at("tensor[" + t + "].offset"));
  }

  @Test
  void safetensorsEscapedMetadataIsChargedAtItsWrittenLength() throws ReaException {
    // 6,000,000 U+0001 characters: 6 MB decoded, 36 MB as JSON (escaped in the header too, so
    // the header is 36 MB, within the 100 MB ceiling): refused by the 32 MiB budget.
    String json =
        "{\"__metadata__\":{\"k\":\""
            + "\\u0001".repeat(6_000_000)
            + "\"},\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
    byte[] file = SafetensorsBuilder.file(json, 8);
    assertThat(file.length).isGreaterThan(36_000_000);
    ReaException e = SafetensorsReads.reject(file, Limits.defaults());
    assertBudgetRefusal(e, "__metadata__[\"k\"]", SafetensorsBuilder.offsetOf(json, "\"\\u0001"));
    // The same header with a 1 MiB budget and 100,000 of them (600 KB of JSON) fits, and the
    // bundle stays within the budget.
    String fits = "\u0001".repeat(100_000);
    byte[] small = SafetensorsBuilder.builder().metadata("k", fits).tensor("t", "F32", 2).build();
    Outcome o = BudgetedInspection.inspect(small, Path.of("/models/s.safetensors"),
        Limits.builder().retainedBudgetBytes(1 << 20).build(), signer);
    assertThat((long) o.bundle().length).isGreaterThan(600_000L).isLessThanOrEqualTo(o.used());
    // Tensor names and unknown dtypes: 200 names of 60 escaped characters each do not fit 64 KiB.
    SafetensorsBuilder.Builder many = SafetensorsBuilder.builder();
    for (int i = 0; i < 200; i++) {
      many.tensorBytes(String.format("%03d", i) + "\u0002".repeat(60), "X\u0001", 1, 1);
    }
    ReaException me = SafetensorsReads.reject(many.build(), Limits.builder().retainedBudgetBytes(64 * 1024).build());
    assertThat(me.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(me.field()).startsWith("tensors[\"");
    assertThat(me.offset()).isPositive();
  }

  @Test
  void rowsWiderThanTheirFloorAreChargedTheirJsonLength() throws ReaException {
    // 3,000 empty F32 tensors with three dimensions of 2^64-1 after a zero: about 250 bytes of
    // JSON per row, more than the 224 bytes (+ name) a GGUF row is charged before its fields are
    // known. The extra is charged, so the bundle stays within what was charged.
    long max = -1L;
    GgufBuilder g = GgufBuilder.v3();
    for (int i = 0; i < 3000; i++) {
      g.tensorAt("t" + i, 0, 0, 0, max, max, max);
    }
    Outcome go = BudgetedInspection.inspect(g.bytes(), PATH, Limits.defaults(), signer);
    assertThat(go.record().tensors()).hasSize(3000);
    long floors = 3000L * (224 + 5);
    assertThat((long) go.bundle().length).isGreaterThan(floors).isLessThanOrEqualTo(go.used());
    // Safetensors: 2,000 tensors of 40 dimensions (a zero, then 2^63-1): 20 bytes of JSON per
    // dimension, 8 charged while the shape is read, the rest when the entry ends.
    SafetensorsBuilder.Builder st = SafetensorsBuilder.builder();
    long[] dims = new long[40];
    Arrays.fill(dims, Long.MAX_VALUE);
    dims[0] = 0;
    for (int i = 0; i < 2000; i++) {
      st.tensor("t" + i, "F32", dims);
    }
    Outcome so = BudgetedInspection.inspect(st.build(), Path.of("/m/w.safetensors"), Limits.defaults(), signer);
    assertThat((long) so.bundle().length).isGreaterThan(2000L * 40 * 20).isLessThanOrEqualTo(so.used());
  }

  @Test
  void theFixedPartIsChargedBeforeTheHeaderIsRead() {
    // A budget smaller than the record's fixed part refuses before any row, naming the path.
    Limits tiny = Limits.builder().retainedBudgetBytes(RecordSize.FIXED_RECORD_BYTES).build();
    byte[] file = GgufBuilder.v3().build().bytes();
    assertThatThrownBy(() -> BudgetedInspection.inspect(file, PATH, tiny, signer))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
          assertThat(e.field()).isEqualTo("request.path");
          assertThat(e.offset()).isNull();
        });
  }
}
