package dev.rea.core.internal.format.gguf;

import static dev.rea.core.internal.format.gguf.GgufMetadataTest.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.LayoutBounds;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.gguf.GgufBuilder.Built;
import dev.rea.core.internal.format.gguf.GgufBuilder.Data;
import dev.rea.core.internal.format.gguf.GgufBuilder.Tensor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Tensor directory rules: names, dimensions, shape products, row blocks, types, offsets, ranges. */
class GgufTensorTest {
  private static final long TWO_62 = 1L << 62;

  private static ParsedHeader read(GgufBuilder b) throws ReaException {
    return GgufTesting.read(b.bytes());
  }

  private static void rejected(GgufBuilder b, String field) {
    rejected(b, field, Constraint.FILE_FORMAT_REJECTED);
  }

  private static void rejected(GgufBuilder b, String field, Constraint c) {
    Built built = b.build();
    assertRejected(GgufTesting.reject(built.bytes()), c, field, built.at(field));
  }

  // ---------------------------------------------------------------------------------------------
  // Names

  @Test
  void namesOf64BytesAreAccepted65AreRejected() throws Exception {
    String n64 = "n".repeat(64);
    assertThat(read(GgufBuilder.v3().tensor(n64, 0, 1)).tensors().get(0).name()).isEqualTo(n64);
    // 64 bytes of UTF-8 in 32 two-byte characters.
    String u64 = "é".repeat(32);
    assertThat(read(GgufBuilder.v3().tensor(u64, 0, 1)).tensors().get(0).name()).isEqualTo(u64);
    ReaException e = GgufTesting.reject(GgufBuilder.v3().tensor("n".repeat(65), 0, 1).bytes());
    assertThat(e.getMessage()).contains("65 bytes");
    rejected(GgufBuilder.v3().tensor("a", 0, 1).tensor("n".repeat(65), 0, 1), "tensor[1].name");
    rejected(GgufBuilder.v3().tensor(new Tensor("x", 0, 1).nameBytes(new byte[1 << 20])), "tensor[0].name");
  }

  @Test
  void emptyNamesAreAcceptedDuplicatesRejectedComparingWholeNames() throws Exception {
    assertThat(read(GgufBuilder.v3().tensor("", 0, 1)).tensors().get(0).name()).isEmpty();
    rejected(GgufBuilder.v3().tensor("", 0, 1).tensor("", 0, 1), "tensor[1].name");
    rejected(GgufBuilder.v3().tensor("w", 0, 1).tensor("v", 0, 1).tensor("w", 0, 1), "tensor[2].name");
    // Names equal up to a NUL are different names (C's strcmp would call them equal).
    ParsedHeader h = read(GgufBuilder.v3().tensor("a\u0000b", 0, 1).tensor("a\u0000c", 0, 1));
    assertThat(h.tensors()).extracting(TensorRow::name).containsExactly("a\u0000b", "a\u0000c");
    rejected(GgufBuilder.v3().tensor("a\u0000b", 0, 1).tensor("a\u0000b", 0, 1), "tensor[1].name");
  }

  @Test
  void invalidUtf8InANameIsRejected() throws Exception {
    Built b =
        GgufBuilder.v3()
            .tensor(new Tensor("x", 0, 1).nameBytes(new byte[] {'b', 'l', (byte) 0xE2, (byte) 0x28, (byte) 0xA1}))
            .build();
    assertRejected(
        GgufTesting.reject(b.bytes()), Constraint.FILE_FORMAT_REJECTED, "tensor[0].name", b.at("tensor[0].name") + 8 + 2);
  }

  // ---------------------------------------------------------------------------------------------
  // Dimensions and shape products

  @Test
  void fourDimensionsAreAcceptedFiveRejectedZeroIsAScalar() throws Exception {
    TensorRow four = read(GgufBuilder.v3().tensor("t", 0, 2, 3, 4, 5)).tensors().get(0);
    assertThat(four.shape()).containsExactly(2L, 3L, 4L, 5L);
    assertThat(four.parameterCount()).isEqualTo(120);
    assertThat(four.byteLength()).isEqualTo(480L);
    rejected(GgufBuilder.v3().tensor("t", 0, 2, 3, 4, 5, 1), "tensor[0].n_dims");
    rejected(GgufBuilder.v3().tensor(new Tensor("t", 0).nDims(0xFFFFFFFFL)), "tensor[0].n_dims");
    TensorRow scalar = read(GgufBuilder.v3().tensor("s", 0)).tensors().get(0);
    assertThat(scalar.shape()).isEmpty();
    assertThat(scalar.parameterCount()).isEqualTo(1);
    assertThat(scalar.byteLength()).isEqualTo(4L);
  }

  @Test
  void shapeProductsAreExactUpTo2Pow64Minus1() throws Exception {
    // 2^64-1 = 65535 * 42009217 * 6700417 (3*5*17*257 * 641*65537 * 6700417).
    // AMBIGUOUS_24 has no known length, so the range rules cannot reject it.
    TensorRow max =
        read(GgufBuilder.v3().tensor(new Tensor("m", 24, 65535, 42009217, 6700417).dataBytes(1)))
            .tensors()
            .get(0);
    assertThat(max.parameterCount()).isEqualTo(-1L); // 2^64-1 unsigned
    assertThat(Long.toUnsignedString(max.parameterCount())).isEqualTo("18446744073709551615");
    assertThat(max.byteLength()).isNull();
    // 65536 * 2^48 = 2^64: rejected at the dimension that overflows.
    rejected(GgufBuilder.v3().tensor(new Tensor("m", 24, 65536, 1L << 48).dataBytes(1)), "tensor[0].dims[1]");
    rejected(GgufBuilder.v3().tensor(new Tensor("m", 24, 1L << 32, 1L << 32).dataBytes(1)), "tensor[0].dims[1]");
    TensorRow below =
        read(GgufBuilder.v3().tensor(new Tensor("m", 24, 1L << 32, (1L << 32) - 1).dataBytes(1)))
            .tensors()
            .get(0);
    assertThat(Long.toUnsignedString(below.parameterCount())).isEqualTo("18446744069414584320");
    // A single dimension of 2^64-1 is kept unsigned.
    TensorRow one = read(GgufBuilder.v3().tensor(new Tensor("m", 24, -1L).dataBytes(1))).tensors().get(0);
    assertThat(one.shape()).containsExactly(-1L);
  }

  @Test
  void aLaterZeroDoesNotEraseAnEarlierOverflow() throws Exception {
    rejected(GgufBuilder.v3().tensor("z", 0, TWO_62, 4, 0), "tensor[0].dims[1]");
    TensorRow empty = read(GgufBuilder.v3().tensor("z", 0, 0, TWO_62, 4)).tensors().get(0);
    assertThat(empty.parameterCount()).isZero();
    assertThat(empty.byteLength()).isZero();
    assertThat(empty.storageValidation()).isEqualTo(StorageValidation.CONSISTENT);
    assertThat(empty.shape()).containsExactly(0L, TWO_62, 4L);
    // [2^63, 0] is an empty tensor: dims are unsigned, not negative.
    TensorRow big = read(GgufBuilder.v3().tensor("z", 0, Long.MIN_VALUE, 0)).tensors().get(0);
    assertThat(big.parameterCount()).isZero();
  }

  @Test
  void aKnownLengthBeyond2Pow64IsRejectedAsARangeOutsideTheFile() throws Exception {
    // The dimensions make the tensor too large for any file: they are named, at their offset.
    rejected(GgufBuilder.v3().tensor(new Tensor("z", 0, TWO_62).dataBytes(1)), "tensor[0].dims");
    rejected(GgufBuilder.v3().tensor(new Tensor("z", 27, -1L).dataBytes(1)), "tensor[0].dims");
  }

  // ---------------------------------------------------------------------------------------------
  // Row blocks

  @Test
  void knownBlockTypesNeedWholeBlocksInTheFirstDimensionEvenWhenEmpty() throws Exception {
    assertThat(read(GgufBuilder.v3().tensor("q", 2, 64, 2)).tensors().get(0).byteLength()).isEqualTo(72L);
    rejected(GgufBuilder.v3().tensor(new Tensor("q", 2, 48, 2).dataBytes(54)), "tensor[0].dims[0]");
    assertThat(read(GgufBuilder.v3().tensor("q", 2, 32, 0)).tensors().get(0).byteLength()).isZero();
    rejected(GgufBuilder.v3().tensor("q", 2, 48, 0), "tensor[0].dims[0]");
    // Scalars of block types: the single element is not a whole block.
    rejected(GgufBuilder.v3().tensor("q", 2), "tensor[0].type");
    // Q8_1: rows of 32.
    assertThat(read(GgufBuilder.v3().tensor("q", 9, 32)).tensors().get(0).byteLength()).isNull();
    rejected(GgufBuilder.v3().tensor("q", 9, 16), "tensor[0].dims[0]");
    rejected(GgufBuilder.v3().tensor("q", 9, 16, 0), "tensor[0].dims[0]");
    // K types: rows of 64 (not 256: the K64 layout was released too).
    for (int k = 10; k <= 15; k++) {
      assertThat(read(GgufBuilder.v3().tensor(new Tensor("k", k, 64).dataBytes(80))).tensors().get(0).type())
          .isEqualTo(GgmlTypes.of(k).label());
      rejected(GgufBuilder.v3().tensor(new Tensor("k", k, 32).dataBytes(80)), "tensor[0].dims[0]");
      rejected(GgufBuilder.v3().tensor("k", k, 96, 0), "tensor[0].dims[0]");
      assertThat(read(GgufBuilder.v3().tensor("k", k, 128, 0)).tensors().get(0).byteLength()).isZero();
    }
    // Other block types: MXFP4 32, NVFP4 64, Q1_0 128, TQ1_0 256, removed Q4_0_4_4 32.
    for (long[] t : new long[][] {{39, 32}, {40, 64}, {41, 128}, {34, 256}, {31, 32}, {29, 256}}) {
      read(GgufBuilder.v3().tensor("b", t[0], t[1]));
      rejected(GgufBuilder.v3().tensor(new Tensor("b", t[0], t[1] / 2).dataBytes(64)), "tensor[0].dims[0]");
    }
    // Ambiguous and unknown IDs have no row rule.
    read(GgufBuilder.v3().tensor(new Tensor("a", 16, 3).dataBytes(3)));
    read(GgufBuilder.v3().tensor(new Tensor("u", 43, 3).dataBytes(3)));
  }

  // ---------------------------------------------------------------------------------------------
  // Types, limitations, warnings

  @Test
  void typeIdsAreKeptWithTheirLabelsLengthsAndLimitations() throws Exception {
    GgufBuilder b =
        GgufBuilder.v3()
            .tensor("f32", 0, 32)
            .tensor("q8_1", 9, 32, 2)
            .tensor("q8_1.empty", 9, 32, 0)
            .tensor("q4_k", 12, 256)
            .tensor("q4_k.empty", 12, 64, 0)
            .tensor("amb", 18, 256)
            .tensor("amb.empty", 18, 0)
            .tensor(new Tensor("u4", 4, 32).dataBytes(20))
            .tensor(new Tensor("u4.empty", 4, 0).dataBytes(0))
            .tensor(new Tensor("max", 0xFFFFFFFFL, 5).dataBytes(5))
            .tensor("removed", 36, 64)
            .tensor("q8_1.again", 9, 64)
            .tensor("bf16", 30, 4);
    ParsedHeader h = read(b);
    List<TensorRow> t = h.tensors();
    assertThat(t).extracting(TensorRow::type)
        .containsExactly(
            "F32", "Q8_1", "Q8_1", "Q4_K", "Q4_K", "AMBIGUOUS_18", "AMBIGUOUS_18", "UNKNOWN_4",
            "UNKNOWN_4", "UNKNOWN_4294967295", "IQ4_NL_4_4", "Q8_1", "BF16");
    assertThat(t).extracting(TensorRow::typeId)
        .containsExactly(0L, 9L, 9L, 12L, 12L, 18L, 18L, 4L, 4L, 4294967295L, 36L, 9L, 30L);
    assertThat(t).extracting(TensorRow::byteLength)
        .containsExactly(128L, null, 0L, null, 0L, null, 0L, null, null, null, 36L, null, 8L);
    assertThat(t).extracting(TensorRow::storageValidation)
        .containsExactly(
            StorageValidation.CONSISTENT, StorageValidation.UNKNOWN, StorageValidation.CONSISTENT,
            StorageValidation.UNKNOWN, StorageValidation.CONSISTENT, StorageValidation.UNKNOWN,
            StorageValidation.CONSISTENT, StorageValidation.UNKNOWN, StorageValidation.UNKNOWN,
            StorageValidation.UNKNOWN, StorageValidation.CONSISTENT, StorageValidation.UNKNOWN,
            StorageValidation.CONSISTENT);

    // One limitation per affected type ID, in ID order; Q8_1 and K list nonempty tensors only,
    // ambiguous and unknown IDs every tensor.
    List<Limitation> l = h.limitations();
    assertThat(l).extracting(Limitation::typeId).containsExactly(4L, 9L, 12L, 18L, 4294967295L);
    assertThat(l).extracting(Limitation::code)
        .containsExactly(
            "unknown_type_id", "q8_1_layout_ambiguous", "k_quant_layout_ambiguous", "ambiguous_type_id",
            "unknown_type_id");
    assertThat(l.get(0).tensorIndices()).containsExactly(7, 8);
    assertThat(l.get(1).tensorIndices()).containsExactly(1, 11);
    assertThat(l.get(2).tensorIndices()).containsExactly(3);
    assertThat(l.get(3).tensorIndices()).containsExactly(5, 6);
    assertThat(l.get(4).tensorIndices()).containsExactly(9);
    assertThat(l.get(3).candidates()).containsExactly("I32", "I16", "I8", "IQ3_XXS");
    assertThat(l.get(3).message()).contains("I32 (b1500)", "I16 (b1803)", "I8 (b1871)", "IQ3_XXS (b2100");
    assertThat(l.get(1).candidates()).hasSize(2);
    assertThat(l.get(1).message()).contains("36", "40");
    assertThat(l.get(2).candidates()).containsExactly(
        "K256: 144 bytes per 256 elements", "K64: 38 bytes per 64 elements (LLAMA_QKK_64 builds)");
    assertThat(l.get(0).candidates()).isNull();

    // IDs 4 and 5 were released (and removed before GGUF); 4294967295 never was: a warning.
    assertThat(h.warnings()).extracting(Warning::code)
        .containsExactly("removed_type", "unknown_type_id");
    assertThat(h.warnings().get(0).message()).contains("IQ4_NL_4_4", "36", "tensor 10");
    assertThat(h.warnings().get(1).message())
        .contains("type ID 4294967295", "damaged header", "tensor 9 declares it");
  }

  // ---------------------------------------------------------------------------------------------
  // Offsets and ranges

  @Test
  void offsetsMustBeMultiplesOfTheAlignment() throws Exception {
    read(GgufBuilder.v3().tensorAt("a", 0, 0, 4).tensorAt("b", 0, 32, 4).tensorAt("c", 0, 96, 4));
    rejected(GgufBuilder.v3().tensorAt("a", 0, 0, 4).tensorAt("b", 0, 16, 4), "tensor[1].offset");
    rejected(GgufBuilder.v3().tensorAt("a", 0, 8, 4), "tensor[0].offset");
    // Alignment 24 (not a power of two).
    read(GgufBuilder.v3().alignment(24).tensorAt("a", 0, 0, 4).tensorAt("b", 0, 24, 4).tensorAt("c", 0, 72, 4));
    rejected(GgufBuilder.v3().alignment(24).tensorAt("a", 0, 0, 4).tensorAt("b", 0, 32, 4), "tensor[1].offset");
    // Even empty tensors.
    rejected(GgufBuilder.v3().tensorAt("e", 0, 4, 0), "tensor[0].offset");
  }

  @Test
  void gapsAndAnyOrderAreAllowed() throws Exception {
    ParsedHeader h =
        read(
            GgufBuilder.v3()
                .tensorAt("c", 0, 256, 8)
                .tensorAt("a", 0, 0, 8)
                .tensorAt("b", 0, 96, 8));
    assertThat(h.tensors()).extracting(TensorRow::name).containsExactly("c", "a", "b");
    assertThat(h.tensors()).extracting(TensorRow::offset).containsExactly(256L, 0L, 96L);
  }

  @Test
  void provenOverlapsAreRejected() throws Exception {
    // Adjacent known ranges [0, 32) and [32, 64): fine.
    read(GgufBuilder.v3().tensorAt("a", 0, 0, 8).tensorAt("b", 0, 32, 8));
    // Known ranges that intersect: [0, 64) and [32, 64).
    rejected(GgufBuilder.v3().tensorAt("a", 0, 0, 16).tensorAt("b", 0, 32, 8), "tensor[1].offset");
    // The same, declared in the other order: the later declaration is named.
    rejected(GgufBuilder.v3().tensorAt("b", 0, 32, 8).tensorAt("a", 0, 0, 16), "tensor[1].offset");
    // A long range swallowing a later one, with one between.
    rejected(
        GgufBuilder.v3().tensorAt("a", 0, 0, 64).tensorAt("b", 0, 256, 8).tensorAt("c", 0, 224, 8),
        "tensor[2].offset");
    // Two nonempty tensors of unknown length at one offset.
    rejected(
        GgufBuilder.v3().tensorAt("q", 9, 0, 32).tensorAt("r", 9, 0, 32),
        "tensor[1].offset");
    // A nonempty tensor of unknown length starting inside a known range.
    rejected(GgufBuilder.v3().tensorAt("a", 0, 0, 16).tensorAt("q", 12, 32, 64), "tensor[1].offset");
    // An unknown-length tensor followed by a known one: nothing is proven.
    ParsedHeader h = read(GgufBuilder.v3().tensorAt("q", 12, 0, 64).tensorAt("a", 0, 32, 8));
    assertThat(h.tensors()).hasSize(2);
    // Empty tensors occupy no bytes, wherever they are.
    read(
        GgufBuilder.v3()
            .tensorAt("a", 0, 0, 16)
            .tensorAt("e", 0, 32, 0)
            .tensorAt("f", 12, 0, 64, 0)
            .tensorAt("g", 0, 0, 0));
  }

  @Test
  void threeTensorsAtOffsetZeroAsInTheThreatFluxFile() throws Exception {
    // Data present back to back, as the file has it; the declarations still overlap.
    GgufBuilder b =
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("test"))
            .tensorAt("token_embd.weight", 0, 0, 1000, 128)
            .tensorAt("output_norm.weight", 0, 0, 128)
            .tensorAt("output.weight", 0, 0, 128, 1000)
            .trailing(new byte[1024512 - 512000]);
    Built built = b.build();
    ReaException e = GgufTesting.reject(built.bytes());
    assertRejected(e, Constraint.FILE_FORMAT_REJECTED, "tensor[1].offset", built.at("tensor[1].offset"));
    assertThat(e.getMessage()).contains("overlaps tensor[0]");
  }

  @Test
  void knownRangesMustEndWithinTheFile() throws Exception {
    Built exact = GgufBuilder.v3().tensor("a", 0, 3).tensor("b", 0, 5).build();
    ParsedHeader h = GgufTesting.read(exact.bytes());
    TensorRow last = h.tensors().get(1);
    assertThat(last.fileOffset() + last.byteLength()).isEqualTo(exact.bytes().length);
    Built shortBy1 = GgufBuilder.v3().tensor("a", 0, 3).tensor("b", 0, 5).truncate(1).build();
    assertRejected(
        GgufTesting.reject(shortBy1.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "tensor[1].offset",
        shortBy1.at("tensor[1].offset"));
    // An empty known range at the end of the file is fine; past it is not.
    read(GgufBuilder.v3().tensor("a", 0, 8).tensorAt("e", 0, 32, 0));
    // (The builder writes data up to every declared offset; cut the 32 bytes after "a" off.)
    rejected(GgufBuilder.v3().tensor("a", 0, 8).tensorAt("e", 0, 64, 0).truncate(32), "tensor[1].offset");
    // Ranges whose end would pass 2^64.
    rejected(GgufBuilder.v3().tensorAt("a", 0, -32L, 8), "tensor[0].offset");
  }

  @Test
  void nonemptyTensorsOfUnknownLengthMustStartBeforeTheEndOfTheFile() throws Exception {
    // Data section of exactly one byte: a Q8_1 tensor at offset 0 starts before EOF.
    read(GgufBuilder.v3().tensor(new Tensor("q", 9, 32).dataBytes(1)));
    // No data byte at all: it starts at EOF.
    rejected(GgufBuilder.v3().tensor(new Tensor("q", 9, 32).dataBytes(0)).data(Data.PADDING_ONLY), "tensor[0].offset");
    rejected(
        GgufBuilder.v3().tensor("a", 0, 8).tensor(new Tensor("q", 9, 32).offset(32).dataBytes(0)),
        "tensor[1].offset");
    // Empty tensors of unknown types only need a representable file offset.
    read(GgufBuilder.v3().tensor("a", 0, 8).tensor(new Tensor("u", 43, 0).offset(1L << 40)));
    rejected(GgufBuilder.v3().tensor(new Tensor("u", 43, 0).offset(-32L)), "tensor[0].offset");
  }

  @Test
  void fileOffsetsAreTheDataOffsetPlusTheRelativeOffset() throws Exception {
    Built b = GgufBuilder.v3().alignment(64).tensor("a", 0, 3).tensor("b", 1, 100).tensor("c", 8, 32).build();
    ParsedHeader h = GgufTesting.read(b.bytes());
    for (int i = 0; i < 3; i++) {
      assertThat(h.tensors().get(i).offset()).isEqualTo(b.tensorOffsets().get(i));
      assertThat(h.tensors().get(i).fileOffset()).isEqualTo(b.dataOffset() + b.tensorOffsets().get(i));
      assertThat(h.tensors().get(i).index()).isEqualTo(i);
    }
    assertThat(b.tensorOffsets()).containsExactly(0L, 64L, 320L);
  }

  @Test
  @Timeout(20)
  void aHundredThousandTensorsInReverseOrderAreCheckedInLogLinearTime() throws Exception {
    int n = 100_000;
    GgufBuilder b = GgufBuilder.v3().recordElementOffsets(false);
    for (int i = 0; i < n; i++) {
      b.tensorAt("blk." + i + ".w", 0, (long) (n - 1 - i) * 32, 8);
    }
    byte[] file = b.bytes();
    ParsedHeader h = GgufTesting.read(file);
    assertThat(h.tensors()).hasSize(n);
    assertThat(h.tensors().get(0).offset()).isEqualTo((long) (n - 1) * 32);
    // The same directory with one overlap deep inside is rejected, naming the later tensor.
    GgufBuilder o = GgufBuilder.v3().recordElementOffsets(false);
    for (int i = 0; i < n; i++) {
      long off = i == 77_777 ? (long) (n - 1 - 12_345) * 32 : (long) (n - 1 - i) * 32;
      o.tensorAt("blk." + i + ".w", 0, off, 8);
    }
    Built ob = o.build();
    ReaException e = GgufTesting.reject(ob.bytes());
    assertRejected(e, Constraint.FILE_FORMAT_REJECTED, "tensor[77777].offset", ob.at("tensor[77777].offset"));
    assertThat(e.getMessage()).contains("overlaps tensor[12345]");
  }

  @Test
  void nameBytesAreRetainedExactly() throws Exception {
    String name = "blk.0.ffn_up.weight-日本";
    assertThat(name.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(64);
    assertThat(read(GgufBuilder.v3().tensor(name, 0, 1)).tensors().get(0).name()).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void truncatingTheDirectoryAnywhereNamesTheTensorField(int cut) throws Exception {
    // A 40-byte name, so that every cut leaves the 24 bytes the tensor count needs at least.
    Built b = GgufBuilder.v3().tensor("n".repeat(40), 0, 5, 6).data(Data.NONE).build();
    String[] fields = {"tensor[0].name", "tensor[0].dims[1]", "tensor[0].type", "tensor[0].offset"};
    long[] at = {b.at("tensor[0].name") + 8 + 20, b.at("tensor[0].dims[1]") + 3, b.at("tensor[0].type") + 1, b.at("tensor[0].offset") + 7};
    byte[] file = java.util.Arrays.copyOf(b.bytes(), (int) at[cut]);
    ReaException e = GgufTesting.reject(file);
    assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
    assertThat(e.field()).isEqualTo(fields[cut]);
  }

  private static List<String> warningCodes(ParsedHeader h) {
    return h.warnings().stream().map(Warning::code).toList();
  }

  @Test
  void tensorsThatNoReleasedLayoutCanFitBeforeTheEndOfTheFileAreAcceptedWithAWarning()
      throws Exception {
    // Q4_K [256, 4]: K256 needs 4 x 144 = 576 bytes, K64 16 x 38 = 608. With all 576 present,
    // the smaller layout fits and nothing is said; one byte short, no released layout fits.
    ParsedHeader fits = read(GgufBuilder.v3().tensor(new Tensor("k", 12, 256, 4).dataBytes(576)));
    assertThat(warningCodes(fits)).doesNotContain(LayoutBounds.TRUNCATED);
    ParsedHeader shortBy1 =
        read(GgufBuilder.v3().tensor(new Tensor("k", 12, 256, 4).dataBytes(575)));
    assertThat(shortBy1.tensors().get(0).byteLength()).isNull();
    Warning w =
        shortBy1.warnings().stream()
            .filter(x -> x.code().equals(LayoutBounds.TRUNCATED))
            .findFirst()
            .orElseThrow();
    assertThat(w.message()).contains("tensor[0] Q4_K").contains("needs at least 576 bytes, 575 remain");
    // Q8_1 [32]: 36 bytes in the smaller (modern) layout.
    assertThat(warningCodes(read(GgufBuilder.v3().tensor(new Tensor("q", 9, 32).dataBytes(36)))))
        .doesNotContain(LayoutBounds.TRUNCATED);
    assertThat(warningCodes(read(GgufBuilder.v3().tensor(new Tensor("q", 9, 32).dataBytes(35)))))
        .contains(LayoutBounds.TRUNCATED);
    // AMBIGUOUS_19 [256]: IQ1_S, its smallest meaning, takes 50 bytes.
    assertThat(warningCodes(read(GgufBuilder.v3().tensor(new Tensor("a", 19, 256).dataBytes(50)))))
        .doesNotContain(LayoutBounds.TRUNCATED);
    assertThat(warningCodes(read(GgufBuilder.v3().tensor(new Tensor("a", 19, 256).dataBytes(49)))))
        .contains(LayoutBounds.TRUNCATED);
    // Unknown IDs carry no layout at all: nothing can be said.
    assertThat(warningCodes(read(GgufBuilder.v3().tensor(new Tensor("u", 43, 256).dataBytes(1)))))
        .doesNotContain(LayoutBounds.TRUNCATED);
  }

  @Test
  void tensorsStartingInsideTheSmallestReleasedLayoutOfAnEarlierOneGetAWarning() throws Exception {
    // Q4_K [256, 16] takes at least 2,304 bytes (K256; K64 needs 2,432). The next tensor at
    // 2,304 is fine; one that starts at 2,272 lies inside those bytes under every released layout.
    ParsedHeader apart =
        read(GgufBuilder.v3().tensorAt("k", 12, 0, 256, 16).tensorAt("f", 0, 2304, 8));
    assertThat(warningCodes(apart)).doesNotContain(LayoutBounds.OVERLAP);
    ParsedHeader inside =
        read(GgufBuilder.v3().tensorAt("k", 12, 0, 256, 16).tensorAt("f", 0, 2272, 8));
    Warning w =
        inside.warnings().stream()
            .filter(x -> x.code().equals(LayoutBounds.OVERLAP))
            .findFirst()
            .orElseThrow();
    assertThat(w.message()).contains("tensor[1] starts at file offset 2400").contains("tensor[0] (Q4_K)");
  }

  /**
   * A row of 64 Q4_K elements is not whole 256-element blocks, so only K64 (2,432 bytes for
   * [64, 64]) can hold it: a next tensor at 2,304 lies inside its storage under every released
   * layout that can hold its shape, as candidates_fitting_ranges (empty) says.
   */
  @Test
  void theBoundOfATensorIsItsShortestLayoutThatHoldsItsRows() throws Exception {
    ParsedHeader k64 =
        read(GgufBuilder.v3().tensorAt("k", 12, 0, 64, 64).tensorAt("f", 0, 2304, 8));
    Warning w =
        k64.warnings().stream()
            .filter(x -> x.code().equals(LayoutBounds.OVERLAP))
            .findFirst()
            .orElseThrow();
    // The builder's data section ends after f, so K64's 2,432 bytes also run past the file.
    assertThat(w.message()).contains("tensor[1] starts at file offset 2432, inside the ").contains(
        "tensor[0] (Q4_K)");
    assertThat(warningCodes(k64)).contains(LayoutBounds.TRUNCATED);
    ParsedHeader roomy =
        read(GgufBuilder.v3().tensorAt("k", 12, 0, 64, 64).tensorAt("f", 0, 2432, 8));
    assertThat(warningCodes(roomy)).doesNotContain(LayoutBounds.OVERLAP);
  }

  @Test
  void anOverlapMessageDescribesEachTensorTruly() throws Exception {
    // b [32, 64) is declared first, a [0, 64) second: the later declaration (a) is named, and
    // the message says which tensor starts inside which range.
    Built b = GgufBuilder.v3().tensorAt("b", 0, 32, 8).tensorAt("a", 0, 0, 16).build();
    ReaException e = GgufTesting.reject(b.bytes());
    assertRejected(e, Constraint.FILE_FORMAT_REJECTED, "tensor[1].offset", b.at("tensor[1].offset"));
    assertThat(e.getMessage())
        .contains("tensor[1] overlaps tensor[0]")
        .contains("tensor[0] starts at offset 32, inside the known range [0, 64) of tensor[1]");
  }
}
