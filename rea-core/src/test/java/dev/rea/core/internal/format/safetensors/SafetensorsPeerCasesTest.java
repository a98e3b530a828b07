package dev.rea.core.internal.format.safetensors;

import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.file;
import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.u64le;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.MemoryFileAccess;
import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bad-input and edge-input test of the safetensors crate (0.8.0; listed in
 * shared/notes/safetensors-readers.md section 4) and its attack scripts, rebuilt as fixtures and
 * inspected by REA (detection included), with upstream's verdict and REA's. REA rejects every
 * input upstream rejects and accepts every input upstream accepts; where the <em>kind</em> of
 * refusal differs from upstream's error, {@code note} says why. (The broader rule table, with
 * exact offsets, is {@code SafetensorsHeaderTableTest}.)
 */
class SafetensorsPeerCasesTest {
  /** The upstream {@code test_deserialization} header (N = 60). */
  static final String T = "{\"test\":{\"dtype\":\"I32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}";

  @TempDir Path dir;

  /**
   * One row.
   *
   * @param name upstream's test name
   * @param upstream upstream's result (its error variant, or "OK")
   * @param bytes the file
   * @param constraint REA's refusal, or null when REA accepts
   * @param accepted checks when REA accepts
   * @param note why REA's kind of refusal differs from upstream's, if it does
   */
  record Case(
      String name,
      String upstream,
      byte[] bytes,
      @Nullable Constraint constraint,
      Consumer<EvidenceRecord> accepted,
      String note) {
    @Override
    public String toString() {
      return name + ": upstream " + upstream + ", REA "
          + (constraint == null ? "accept" : constraint.wireName())
          + (note.isEmpty() ? "" : " (" + note + ")");
    }
  }

  static Case rejects(String name, String upstream, byte[] bytes, Constraint c, String note) {
    return new Case(name, upstream, bytes, c, r -> {}, note);
  }

  static Case accepts(String name, byte[] bytes, Consumer<EvidenceRecord> check) {
    return new Case(name, "OK", bytes, null, check, "");
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** {@code count} entries, all at [0, 16] (upstream attack attempts 2 and 3). */
  static String sameRange(int count) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append("\"weight_").append(i).append("\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}");
    }
    return sb.append('}').toString();
  }

  static Stream<Case> cases() {
    Constraint rejected = Constraint.FILE_FORMAT_REJECTED;
    return Stream.of(
        rejects("test_header_too_small", "HeaderTooSmall", new byte[0], Constraint.UNSUPPORTED_FORMAT,
            "an empty file is neither GGUF nor safetensors: detection refuses it before the reader"),
        rejects("test_header_too_large", "HeaderTooLarge",
            concat(new byte[] {'<', 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff}, ascii(T), new byte[16]),
            rejected, "a declared length larger than the bytes left is file_format_rejected, not header_ceiling (CONTRACT section 8)"),
        rejects("test_invalid_header_length", "InvalidHeaderLength", u64le(60), Constraint.UNSUPPORTED_FORMAT,
            "detection is by content: no JSON object follows the length, so the bytes are not recognised as safetensors"),
        rejects("test_invalid_header_non_utf8", "InvalidHeader", concat(u64le(1), new byte[] {(byte) 0xFF}),
            Constraint.UNSUPPORTED_FORMAT,
            "detection is by content: a header that does not start a JSON object is not recognised as safetensors"),
        rejects("test_invalid_header_non_utf8_inside_an_object", "InvalidHeader",
            concat(u64le(4), new byte[] {'{', '"', (byte) 0xFF, '"'}), rejected, ""),
        rejects("test_invalid_header_not_json", "InvalidHeaderDeserialization", concat(u64le(1), ascii("{")), rejected, ""),
        rejects("test_invalid_info", "TensorInvalidInfo",
            file("{\"test\":{\"dtype\":\"I32\",\"shape\":[2,2],\"data_offsets\":[0, 4]}}", 0), rejected, ""),
        rejects("test_json_attack", "InvalidOffset", file(sameRange(10), 16), rejected, ""),
        rejects("test_metadata_incomplete_buffer_a_polyglot", "MetadataIncompleteBuffer",
            concat(file(T, 16), ascii("extra_bogus_data_for_polyglot_file")), rejected, ""),
        rejects("test_metadata_incomplete_buffer_b_short", "MetadataIncompleteBuffer", file(T, 14), rejected, ""),
        rejects("test_validation_overflow_a", "ValidationOverflow",
            file("{\"test\":{\"dtype\":\"I32\",\"shape\":[2,18446744073709551614],\"data_offsets\":[0,16]}}", 16),
            rejected, ""),
        rejects("test_validation_overflow_b", "ValidationOverflow",
            file("{\"test\":{\"dtype\":\"I32\",\"shape\":[2,9223372036854775807],\"data_offsets\":[0,16]}}", 16),
            rejected, "REA reports the byte length that contradicts the 16-byte range; upstream its bit-count overflow"),
        rejects("test_serialization_fp4_misaligned_reader_form", "MisalignedSlice",
            file("{\"a\":{\"dtype\":\"F4\",\"shape\":[1,3],\"data_offsets\":[0,2]}}", 2), rejected, ""),
        rejects("test_serialization_fp4_invalid_reader_form", "InvalidTensorView",
            file("{\"a\":{\"dtype\":\"F4\",\"shape\":[1,2],\"data_offsets\":[0,2]}}", 2), rejected, ""),
        rejects("attacks_safetensors_abuse_attempt_1", "InvalidHeaderLength",
            concat(u64le(1000), ascii("{\"a\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}"), new byte[16]),
            rejected, ""),
        rejects("attacks_safetensors_abuse_attempt_3_100k_entries_at_one_range", "InvalidOffset",
            file(sameRange(100_000), 16), rejected, ""),
        accepts("test_deserialization", file(T, 16), r -> {
          assertThat(r.tensors()).hasSize(1);
          assertThat(r.artifact().headerLength()).isEqualTo(68);
        }),
        accepts("test_empty_shapes_allowed",
            file("{\"test\":{\"dtype\":\"I32\",\"shape\":[],\"data_offsets\":[0,4]}}", 4),
            r -> assertThat(r.tensors().get(0).parameterCount()).isEqualTo(1)),
        accepts("test_zero_sized_tensor",
            file("{\"test\":{\"dtype\":\"I32\",\"shape\":[2,0],\"data_offsets\":[0,0]}}", 0),
            r -> assertThat(r.tensors().get(0).byteLength()).isEqualTo(0L)),
        accepts("test_whitespace_padded_header", file("{}\r \t\n", 0), r -> assertThat(r.tensors()).isEmpty()),
        accepts("test_whitespace_leading_padded_header", file("\t\n{}\r ", 0), r -> assertThat(r.tensors()).isEmpty()),
        accepts("test_empty_writer_plain", file("{}      ", 0), r -> assertThat(r.artifact().headerLength()).isEqualTo(16)),
        accepts("test_empty_writer_with_metadata",
            SafetensorsBuilder.builder().metadata("framework", "pt").padTo8().build(),
            r -> assertThat(r.metadata()).hasSize(1)),
        accepts("test_serialization",
            SafetensorsBuilder.builder().tensor("attn.0", "F32", 1, 2, 3).build(),
            r -> assertThat(r.tensors().get(0).byteLength()).isEqualTo(24L)),
        accepts("test_serialization_fp4",
            file("{\"attn.0\":{\"dtype\":\"F4\",\"shape\":[1,2],\"data_offsets\":[0,1]}}", 1),
            r -> assertThat(r.tensors().get(0).byteLength()).isEqualTo(1L)),
        accepts("test_serialization_forced_alignement",
            SafetensorsBuilder.builder().tensor("attn0", "F32", 1, 1, 2, 3).padTo8().build(),
            r -> assertThat(r.artifact().headerLength() % 8).isZero()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void peerCase(Case c) {
    MemoryFileAccess access = new MemoryFileAccess(c.bytes());
    Inspection result =
        ModelInspector.withAccess(Limits.defaults(), access)
            .run(Path.of("/peer/" + c.name() + ".safetensors"), HashMode.FULL,
                new ModelInspector.Listener() {}, Cancellation.none());
    EvidenceRecord r = result instanceof Inspection.Complete ok ? ok.record() : null;
    ReaException e = result.failure().orElse(null);
    assertThat(access.closed()).isEqualTo(access.opened());
    if (c.constraint() == null) {
      assertThat(e).as("%s must be accepted", c).isNull();
      assertThat(r.status()).isEqualTo("complete");
      c.accepted().accept(r);
    } else {
      assertThat(e).as("%s must be refused", c).isNotNull();
      assertThat(e.constraint()).as("%s: %s", c, e.getMessage()).isEqualTo(c.constraint());
      assertThat(result.partialEvidence()).isEmpty();
      if (c.constraint() == Constraint.FILE_FORMAT_REJECTED) {
        assertThat(e.field()).as("%s names a field", c).isNotBlank();
        assertThat(e.offset()).isNotNull().isBetween(0L, (long) c.bytes().length);
      }
    }
  }

  /**
   * Upstream's writer refuses a 100,000,000-byte metadata value (test_invalid_header_size_
   * serialization, HeaderTooLarge) and attack attempt 2 writes 10,000,000 entries (a header of
   * about 750 MB). As files, both headers fit the file but pass the 100,000,000-byte ceiling:
   * REA refuses them as resource_exhausted / header_ceiling before reading the JSON (sparse
   * files: the JSON bytes are never read).
   */
  @Test
  void headersPastTheCeilingAreRefusedBeforeTheyAreRead() throws Exception {
    for (long n : new long[] {100_000_000L + 20, 750_000_000L}) {
      Path p = dir.resolve("ceiling-" + n + ".safetensors");
      Files.write(p, concat(u64le(n), ascii("{\"__metadata__\":{\"k\":\"")));
      try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
        raf.setLength(8 + n);
      }
      ReaException e =
          org.assertj.core.api.Assertions.catchThrowableOfType(ReaException.class, () -> ModelInspector.standard().inspect(p, HashMode.HEADER));
      assertThat(e.constraint()).isEqualTo(Constraint.HEADER_CEILING);
      assertThat(e.field()).isEqualTo("json_length");
      assertThat(e.offset()).isEqualTo(0L);
      assertThat(e.diagnostics())
          .containsEntry("limit", "header_ceiling")
          .containsEntry("limit_bytes", "100000000")
          .containsEntry("requested_bytes", Long.toString(n))
          .containsEntry("over_bytes", Long.toString(n - 100_000_000L));
    }
  }
}
