package dev.rea.core.internal.format.gguf;

import static dev.rea.core.internal.format.gguf.GgufBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.MemoryFileAccess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every handcrafted case of llama.cpp {@code tests/test-gguf.cpp} (03f94f19; listed in
 * shared/notes/gguf-readers.md section 3), rebuilt with {@link GgufBuilder} and inspected by
 * REA, with REA's verdict (CONTRACT section 8) beside upstream's. Where they differ, the case
 * name ends in {@code _DIFFERS} and {@code reason} says why. Upstream fills strings with random
 * bytes and BOOLs with arbitrary bytes; as the notes advise, the cases here use valid UTF-8,
 * BOOL 0/1, an alignment that is a multiple of 8 and a data section unless the case is about
 * one of those, and the upstream-literal variants are separate rows.
 */
class GgufPeerCasesTest {

  /**
   * One row of the table.
   *
   * @param name upstream's case name (plus a suffix for REA variants)
   * @param upstream upstream's verdict ("accept" or "reject")
   * @param file the bytes
   * @param constraint REA's refusal, or null when REA accepts
   * @param field the field REA names (prefix), when it refuses
   * @param accepted checks on REA's record when it accepts
   * @param reason why REA differs from upstream (empty when it agrees)
   */
  record Case(
      String name,
      String upstream,
      Supplier<byte[]> file,
      @Nullable Constraint constraint,
      @Nullable String field,
      Consumer<EvidenceRecord> accepted,
      String reason) {
    @Override
    public String toString() {
      String rea = constraint == null ? "accept" : constraint.wireName();
      return name + ": upstream " + upstream + ", REA " + rea + (reason.isEmpty() ? "" : " (" + reason + ")");
    }
  }

  private static Case reject(String name, Supplier<byte[]> file, Constraint c, String field) {
    return new Case(name, "reject", file, c, field, r -> {}, "");
  }

  private static Case rejectDiffers(
      String name, String upstream, Supplier<byte[]> file, Constraint c, String field, String reason) {
    return new Case(name, upstream, file, c, field, r -> {}, reason);
  }

  private static Case accept(String name, String upstream, Supplier<byte[]> file, Consumer<EvidenceRecord> check, String reason) {
    return new Case(name, upstream, file, null, null, check, reason);
  }

  /** ~100 random KVs of every scalar type and arrays of every non-array type, valid strings. */
  static GgufBuilder randomKvs(GgufBuilder b, long seed, boolean upstreamBytes) {
    Random r = new Random(seed);
    int n = 90 + r.nextInt(20);
    for (int i = 0; i < n; i++) {
      String key = "my_key_" + i;
      int type = r.nextInt(13);
      b.kv(key, value(r, type == ARRAY ? STRING : type, upstreamBytes, type == ARRAY));
    }
    return b;
  }

  private static Value value(Random r, int type, boolean upstreamBytes, boolean asArray) {
    if (asArray) {
      int elementType = r.nextInt(13);
      if (elementType == ARRAY) {
        elementType = UINT8;
      }
      List<Value> elements = new ArrayList<>();
      int count = r.nextInt(10);
      for (int k = 0; k < count; k++) {
        elements.add(value(r, elementType, upstreamBytes, false));
      }
      return array(elementType, elements);
    }
    switch (type) {
      case UINT8: return u8(r.nextInt(256));
      case INT8: return i8(r.nextInt(256) - 128);
      case UINT16: return u16(r.nextInt(1 << 16));
      case INT16: return i16(r.nextInt(1 << 16) - (1 << 15));
      case UINT32: return u32(r.nextInt() & 0xFFFFFFFFL);
      case INT32: return i32(r.nextInt());
      case FLOAT32: return f32(r.nextFloat());
      case BOOL: return upstreamBytes ? boolByte(r.nextInt(256)) : bool(r.nextBoolean());
      case STRING: {
        byte[] s = new byte[r.nextInt(20)];
        if (upstreamBytes) {
          r.nextBytes(s);
          for (int k = 0; k < s.length; k++) {
            s[k] |= 0x01;
          }
        } else {
          for (int k = 0; k < s.length; k++) {
            s[k] = (byte) ('a' + r.nextInt(26));
          }
        }
        return strBytes(s);
      }
      case UINT64: return u64(r.nextLong());
      case INT64: return i64(r.nextLong());
      case FLOAT64: return f64(r.nextDouble());
      default: throw new IllegalArgumentException("type " + type);
    }
  }

  /** Types with a nonzero size and their block sizes (upstream meanings, CONTRACT section 8). */
  private static final long[][] TYPES = {
    {0, 1}, {1, 1}, {2, 32}, {3, 32}, {6, 32}, {7, 32}, {8, 32}, {26, 1}, {27, 1}, {28, 1}, {30, 1}
  };

  /** ~100 random tensors: random type, ne0 = k x block, 1 to 4 dims of 1 to 10. */
  static GgufBuilder randomTensors(GgufBuilder b, long seed, String namePrefix, boolean sameName) {
    Random r = new Random(seed);
    int n = 90 + r.nextInt(20);
    for (int i = 0; i < n; i++) {
      long[] t = TYPES[r.nextInt(TYPES.length)];
      long[] dims = new long[1 + r.nextInt(4)];
      dims[0] = (1 + r.nextInt(10)) * t[1];
      for (int k = 1; k < dims.length; k++) {
        dims[k] = 1 + r.nextInt(10);
      }
      b.tensor(sameName ? namePrefix : namePrefix + i, t[0], dims);
    }
    return b;
  }

  /** As {@link #randomTensors} with offsets packed at alignment 1 (no padding between ranges). */
  static GgufBuilder packedTensors(GgufBuilder b, long seed) {
    GgufBuilder shapes = randomTensors(GgufBuilder.v3(), seed, "my_tensor_", false);
    long offset = 0;
    int i = 0;
    for (Tensor t : shapes.tensors()) {
      long elements = 1;
      for (long d : t.dims()) {
        elements *= d;
      }
      b.tensorAt("my_tensor_" + i++, t.typeId(), offset, t.dims());
      offset += storageBytes(t.typeId(), elements);
    }
    return b;
  }

  static Stream<Case> cases() {
    return Stream.of(
        reject("HEADER_BAD_MAGIC", () -> patch(GgufBuilder.v3().bytes(), 0, 'F', 'U', 'G', 'G'),
            Constraint.UNSUPPORTED_FORMAT, null),
        reject("HEADER_BAD_VERSION_0", () -> GgufBuilder.v3().version(0).bytes(), Constraint.UNSUPPORTED_VERSION, "version"),
        reject("HEADER_BAD_VERSION_1", () -> GgufBuilder.v3().version(1).bytes(), Constraint.UNSUPPORTED_VERSION, "version"),
        reject("HEADER_BAD_VERSION_FUTURE", () -> GgufBuilder.v3().version(4).bytes(), Constraint.UNSUPPORTED_VERSION, "version"),
        reject("HEADER_BAD_N_TENSORS", () -> GgufBuilder.v3().tensorCount(-1).bytes(), Constraint.FILE_FORMAT_REJECTED, "tensor_count"),
        reject("HEADER_BAD_N_KV", () -> GgufBuilder.v3().kvCount(-1).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata_kv_count"),
        accept("HEADER_EMPTY", "accept", () -> GgufBuilder.v3().bytes(), r -> {
          assertThat(r.artifact().headerLength()).isEqualTo(24);
          assertThat(r.artifact().fileSize()).isEqualTo(32);
          assertThat(((FormatFacts.Gguf) r.formatFacts()).tensorDataOffset()).isEqualTo(32L);
          assertThat(r.tensors()).isEmpty();
          assertThat(r.metadata()).isEmpty();
        }, ""),
        reject("KV_BAD_KEY_SIZE", () -> {
          Built b = GgufBuilder.v3().kv("k", u8(1)).build();
          return patch(b.bytes(), b.at("metadata[0].key"), 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF);
        }, Constraint.FILE_FORMAT_REJECTED, "metadata[0].key"),
        reject("KV_EMPTY_KEY", () -> GgufBuilder.v3().kv("", u8(1)).kv("", u8(2)).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata[0].key"),
        reject("KV_BAD_TYPE", () -> GgufBuilder.v3().kv("k", raw(13, new byte[] {0})).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata[0].type"),
        reject("KV_DUPLICATE_KEY", () -> GgufBuilder.v3().kv("my_key_0", u8(1)).kv("my_key_0", u8(2)).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata[1].key"),
        reject("KV_BAD_ALIGN", () -> randomKvs(GgufBuilder.v3(), 1, false).kv("general.alignment", u32(13)).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata["),
        reject("KV_WRONG_TYPE_ALIGN", () -> GgufBuilder.v3().kv("general.alignment", i32(32)).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata[0]"),
        accept("KV_SUCCESS_valid_strings_and_bools", "accept", () -> randomKvs(GgufBuilder.v3(), 2, false).bytes(), r -> {
          assertThat(r.metadata()).hasSizeGreaterThanOrEqualTo(90);
          assertThat(((FormatFacts.Gguf) r.formatFacts()).alignment()).isEqualTo(32L);
          assertRoundTrip(r, 2);
        }, ""),
        rejectDiffers("KV_SUCCESS_upstream_random_bytes_DIFFERS", "accept",
            () -> randomKvs(GgufBuilder.v3(), 3, true).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata[",
            "REA requires valid UTF-8 in every string and BOOL bytes 0 or 1; upstream stores the bytes as they are"),
        reject("TENSORS_BAD_NAME_SIZE", () -> GgufBuilder.v3().tensor("n".repeat(87), 0, 4).bytes(), Constraint.FILE_FORMAT_REJECTED, "tensor[0].name"),
        reject("TENSORS_BAD_N_DIMS", () -> GgufBuilder.v3().tensor("t", 0, 1, 1, 1, 1, 1).bytes(), Constraint.FILE_FORMAT_REJECTED, "tensor[0].n_dims"),
        reject("TENSORS_BAD_SHAPE", () -> GgufBuilder.v3().tensor("t", 0, -1L, -1L).data(Data.PADDING_ONLY).bytes(), Constraint.FILE_FORMAT_REJECTED, "tensor[0]"),
        accept("TENSORS_ZERO_DIM", "accept", () -> {
          GgufBuilder b = GgufBuilder.v3();
          for (int i = 0; i < 10; i++) {
            b.tensorAt("my_tensor_" + i, 0, 0, 32, 0);
          }
          return b.bytes();
        }, r -> {
          assertThat(r.tensors()).hasSize(10);
          assertThat(r.tensors()).allSatisfy(t -> assertThat(t.byteLength()).isEqualTo(0L));
          assertThat(r.totals().parameterCount()).isZero();
        }, ""),
        reject("TENSORS_NE_TOO_BIG", () -> GgufBuilder.v3().tensor("t", 0, 4L * Integer.MAX_VALUE, 4L * Integer.MAX_VALUE, 4L * Integer.MAX_VALUE).data(Data.PADDING_ONLY).bytes(),
            Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims"),
        reject("TENSORS_NBYTES_TOO_BIG", () -> {
          long d = (long) (Math.pow(Long.MAX_VALUE / 4.0, 1 / 2.0) * 1.01);
          return GgufBuilder.v3().tensor("t", 27, d, d).data(Data.PADDING_ONLY).bytes();
        }, Constraint.FILE_FORMAT_REJECTED, "tensor[0]"),
        accept("TENSORS_BAD_TYPE_43_with_data_DIFFERS", "reject", () -> GgufBuilder.v3().tensor(new Tensor("t", 43, 8).dataBytes(32)).bytes(), r -> {
          assertThat(r.tensors().get(0).type()).isEqualTo("UNKNOWN_43");
          assertThat(r.tensors().get(0).typeId()).isEqualTo(43L);
          assertThat(r.tensors().get(0).byteLength()).isNull();
          assertThat(r.limitations()).isNotEmpty();
        }, "unknown type IDs are kept as UNKNOWN_<id> with a limitation (CONTRACT section 8); the file is otherwise valid"),
        reject("TENSORS_BAD_OFFSET", () -> GgufBuilder.v3().tensorAt("t", 0, -1L, 8).data(Data.PADDING_ONLY).bytes(), Constraint.FILE_FORMAT_REJECTED, "tensor[0].offset"),
        reject("TENSORS_DUPLICATE_NAME", () -> randomTensors(GgufBuilder.v3(), 4, "my_tensor", true).bytes(), Constraint.FILE_FORMAT_REJECTED, "tensor[1].name"),
        reject("TENSORS_BAD_ALIGN", () -> GgufBuilder.v3().alignment(13).tensor("t", 0, 8).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata[0]"),
        reject("TENSORS_INCONSISTENT_ALIGN", () -> packedTensors(GgufBuilder.v3(), 5).data(Data.PADDING_ONLY).bytes(),
            Constraint.FILE_FORMAT_REJECTED, "tensor["),
        rejectDiffers("TENSORS_SUCCESS_no_data_section_DIFFERS", "accept",
            () -> randomTensors(GgufBuilder.v3(), 6, "my_tensor_", false).data(Data.PADDING_ONLY).bytes(),
            Constraint.FILE_FORMAT_REJECTED, "tensor[",
            "every known tensor range must end within the file; upstream does not check ranges without a data section"),
        rejectDiffers("TENSORS_CUSTOM_ALIGN_1_DIFFERS", "accept",
            () -> randomTensors(GgufBuilder.v3().alignment(1), 7, "my_tensor_", false).bytes(),
            Constraint.FILE_FORMAT_REJECTED, "metadata[0]",
            "general.alignment must be a positive multiple of 8 (CONTRACT section 8); upstream accepts any power of two"),
        accept("TENSORS_CUSTOM_ALIGN_64", "accept", () -> randomTensors(GgufBuilder.v3().alignment(64), 8, "my_tensor_", false).bytes(), r -> {
          assertThat(((FormatFacts.Gguf) r.formatFacts()).alignment()).isEqualTo(64L);
          assertThat(((FormatFacts.Gguf) r.formatFacts()).alignmentSource()).isEqualTo("metadata");
          assertThat(r.tensors()).allSatisfy(t -> assertThat(t.offset() % 64).isZero());
        }, ""),
        reject("DATA_NOT_ENOUGH_DATA_in_last_range", () -> GgufBuilder.v3().tensor("a", 0, 8).tensor("b", 0, 8).padAfterLastTensor(false).truncate(1).bytes(),
            Constraint.FILE_FORMAT_REJECTED, "tensor[1]"),
        accept("DATA_NOT_ENOUGH_DATA_in_padding_DIFFERS", "reject",
            () -> GgufBuilder.v3().tensor("a", 0, 8).tensor("b", 0, 7).padAfterLastTensor(true).truncate(1).bytes(),
            r -> assertThat(r.tensors().get(1).fileOffset() + r.tensors().get(1).byteLength()).isEqualTo(r.artifact().fileSize() - 3),
            "only the declared ranges must be present; the alignment padding after the last tensor is not data"),
        reject("DATA_BAD_ALIGN", () -> randomTensors(GgufBuilder.v3().alignment(13), 9, "my_tensor_", false).bytes(), Constraint.FILE_FORMAT_REJECTED, "metadata[0]"),
        reject("DATA_INCONSISTENT_ALIGN", () -> packedTensors(GgufBuilder.v3(), 10).bytes(),
            Constraint.FILE_FORMAT_REJECTED, "tensor["),
        reject("DATA_MEM_SIZE_OVERFLOW", () -> GgufBuilder.v3().tensorAt("a", 24, 0, 0x7FFFFFFFFFFFFFC0L).tensorAt("b", 24, 0x7FFFFFFFFFFFFFC0L, 0x7FFFFFFFFFFFFFC0L)
            .data(Data.PADDING_ONLY).trailing(new byte[32]).bytes(), Constraint.FILE_FORMAT_REJECTED, "tensor["),
        accept("DATA_SUCCESS", "accept", () -> randomTensors(randomKvs(GgufBuilder.v3(), 11, false), 12, "my_tensor_", false).bytes(), r -> {
          assertThat(r.tensors()).hasSizeGreaterThanOrEqualTo(90);
          assertThat(r.metadata()).hasSizeGreaterThanOrEqualTo(90);
          assertRoundTrip(r, 11);
          assertThat(r.totals().tensorCount()).isEqualTo(r.tensors().size());
        }, ""),
        rejectDiffers("DATA_CUSTOM_ALIGN_1_DIFFERS", "accept",
            () -> randomTensors(GgufBuilder.v3().alignment(1), 13, "my_tensor_", false).bytes(),
            Constraint.FILE_FORMAT_REJECTED, "metadata[0]",
            "general.alignment must be a positive multiple of 8 (CONTRACT section 8)"));
  }

  /** The metadata REA reports are exactly the values {@link #randomKvs} wrote. */
  private static void assertRoundTrip(EvidenceRecord r, long seed) {
    GgufBuilder expected = randomKvs(GgufBuilder.v3(), seed, false);
    ParsedRows rows = new ParsedRows(expected.bytes());
    assertThat(r.metadata()).hasSize(rows.metadata.size());
    for (int i = 0; i < rows.metadata.size(); i++) {
      MetadataRow want = rows.metadata.get(i);
      MetadataRow got = r.metadata().get(i);
      assertThat(got.key()).isEqualTo("my_key_" + i);
      assertThat(got.type()).isEqualTo(want.type());
      assertThat(got.value()).isEqualTo(want.value());
    }
  }

  /** The metadata of a KV-only file, read by REA (used to compare two files' values). */
  private static final class ParsedRows {
    final List<MetadataRow> metadata;

    ParsedRows(byte[] kvOnly) {
      try {
        this.metadata = GgufTesting.read(kvOnly).metadata();
      } catch (ReaException e) {
        throw new AssertionError(e);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void peerCase(Case c) {
    byte[] bytes = c.file().get();
    MemoryFileAccess access = new MemoryFileAccess(bytes);
    Inspection result =
        ModelInspector.withAccess(Limits.defaults(), access)
            .run(Path.of("/peer/" + c.name() + ".gguf"), HashMode.FULL,
                new ModelInspector.Listener() {}, Cancellation.none());
    EvidenceRecord r = result instanceof Inspection.Complete ok ? ok.record() : null;
    ReaException e = result.failure().orElse(null);
    assertThat(access.closed()).isEqualTo(access.opened());
    if (c.constraint() == null) {
      assertThat(e).as("%s must be accepted", c.name()).isNull();
      assertThat(r.status()).isEqualTo("complete");
      c.accepted().accept(r);
    } else {
      assertThat(e).as("%s must be refused", c.name()).isNotNull();
      assertThat(e.constraint()).as("%s: %s", c.name(), e.getMessage()).isEqualTo(c.constraint());
      if (c.field() != null) {
        assertThat(e.field()).as("%s: %s", c.name(), e.getMessage()).startsWith(c.field());
        assertThat(e.offset()).isNotNull().isBetween(0L, (long) bytes.length);
      }
      assertThat(result.partialEvidence()).isEmpty();
    }
    assertThat(c.name().endsWith("_DIFFERS")).as("name marks a difference").isEqualTo(!c.reason().isEmpty());
    boolean agrees = (c.constraint() == null) == c.upstream().equals("accept");
    assertThat(agrees).as("%s: REA differs from upstream exactly when it says why", c).isEqualTo(c.reason().isEmpty());
  }

  @Test
  void theTableHasEveryUpstreamCase() {
    List<String> upstream = List.of(
        "HEADER_BAD_MAGIC", "HEADER_BAD_VERSION_0", "HEADER_BAD_VERSION_1", "HEADER_BAD_VERSION_FUTURE",
        "HEADER_BAD_N_TENSORS", "HEADER_BAD_N_KV", "HEADER_EMPTY", "KV_BAD_KEY_SIZE", "KV_EMPTY_KEY",
        "KV_BAD_TYPE", "KV_DUPLICATE_KEY", "KV_BAD_ALIGN", "KV_WRONG_TYPE_ALIGN", "KV_SUCCESS",
        "TENSORS_BAD_NAME_SIZE", "TENSORS_BAD_N_DIMS", "TENSORS_BAD_SHAPE", "TENSORS_ZERO_DIM",
        "TENSORS_NE_TOO_BIG", "TENSORS_NBYTES_TOO_BIG", "TENSORS_BAD_TYPE", "TENSORS_BAD_OFFSET",
        "TENSORS_DUPLICATE_NAME", "TENSORS_BAD_ALIGN", "TENSORS_INCONSISTENT_ALIGN", "TENSORS_SUCCESS",
        "TENSORS_CUSTOM_ALIGN", "DATA_NOT_ENOUGH_DATA", "DATA_BAD_ALIGN", "DATA_INCONSISTENT_ALIGN",
        "DATA_MEM_SIZE_OVERFLOW", "DATA_SUCCESS", "DATA_CUSTOM_ALIGN");
    List<String> names = cases().map(Case::name).toList();
    for (String u : upstream) {
      assertThat(names).as(u).anyMatch(n -> n.equals(u) || n.startsWith(u + "_"));
    }
  }

  static byte[] patch(byte[] b, long at, int... values) {
    return GgufTesting.patch(b, at, values);
  }
}
