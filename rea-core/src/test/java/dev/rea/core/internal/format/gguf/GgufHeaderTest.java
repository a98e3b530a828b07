package dev.rea.core.internal.format.gguf;

import static dev.rea.core.internal.format.gguf.GgufBuilder.ARRAY;
import static dev.rea.core.internal.format.gguf.GgufBuilder.STRING;
import static dev.rea.core.internal.format.gguf.GgufBuilder.UINT8;
import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.bool;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i16;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u8;
import static dev.rea.core.internal.format.gguf.GgufMetadataTest.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.gguf.GgufBuilder.Built;
import dev.rea.core.internal.format.gguf.GgufBuilder.Data;
import dev.rea.core.options.Limits;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Magic, version and byte order, counts, the header ceiling, data offset and header length. */
class GgufHeaderTest {
  @TempDir Path tmp;

  private static GgufBuilder sample() {
    return GgufBuilder.v3()
        .kv("general.architecture", str("llama"))
        .kv("general.count", u64(-2L))
        .kv("tokenizer.ggml.tokens", GgufBuilder.stringArray("tok", 20))
        .kv("x.nested", array(ARRAY, array(UINT8, u8(1), u8(2)), array(UINT8)))
        .kv("x.f", f32(0.75f))
        .kv("x.d", f64(-1e-300))
        .kv("x.s", i16(-2))
        .kv("x.i", i64(-5))
        .kv("x.b", bool(false))
        .tensor("a", 0, 4, 2)
        .tensor("b", 1, 64)
        .tensor("c", 8, 64, 3)
        .tensor("d", 12, 256);
  }

  // ---------------------------------------------------------------------------------------------
  // Version and byte order

  /** The rows without {@code value_sha256} (which covers the bytes as stored, so byte order). */
  private static java.util.List<dev.rea.core.evidence.MetadataRow> withoutDigests(
      java.util.List<dev.rea.core.evidence.MetadataRow> rows) {
    return rows.stream()
        .map(r -> new dev.rea.core.evidence.MetadataRow(r.index(), r.key(), r.type(), r.value()))
        .toList();
  }

  @Test
  void littleEndianV3AndV2AndBigEndianV3AreRead() throws Exception {
    ParsedHeader le3 = GgufTesting.read(sample().bytes());
    ParsedHeader le2 = GgufTesting.read(sample().version(2).bytes());
    ParsedHeader be3 = GgufTesting.read(sample().bigEndian().bytes());
    assertThat(((FormatFacts.Gguf) le3.facts()).version()).isEqualTo(3);
    assertThat(((FormatFacts.Gguf) le3.facts()).byteOrder()).isEqualTo("little");
    assertThat(((FormatFacts.Gguf) le2.facts()).version()).isEqualTo(2);
    assertThat(((FormatFacts.Gguf) be3.facts()).version()).isEqualTo(3);
    assertThat(((FormatFacts.Gguf) be3.facts()).byteOrder()).isEqualTo("big");
    // Same declarations in both byte orders; the arrays' stored bytes, so their digests, differ.
    assertThat(withoutDigests(be3.metadata())).isEqualTo(withoutDigests(le3.metadata()));
    assertThat(be3.metadata().get(2).valueSha256()).isNotEqualTo(le3.metadata().get(2).valueSha256());
    assertThat(be3.tensors()).isEqualTo(le3.tensors());
    assertThat(be3.limitations()).isEqualTo(le3.limitations());
    assertThat(le2.metadata()).isEqualTo(le3.metadata());
    assertThat(be3.headerLength()).isEqualTo(le3.headerLength());
  }

  @Test
  void bigEndianBytesAreReallyBigEndian() throws Exception {
    byte[] be = sample().bigEndian().bytes();
    assertThat(Arrays.copyOfRange(be, 4, 8)).containsExactly(0, 0, 0, 3);
    assertThat(Arrays.copyOfRange(be, 8, 16)).containsExactly(0, 0, 0, 0, 0, 0, 0, 4);
    byte[] le = sample().bytes();
    assertThat(Arrays.copyOfRange(le, 4, 8)).containsExactly(3, 0, 0, 0);
    // The BE file read as LE would not parse: its counts are huge.
    assertThat(GgufTesting.reject(GgufTesting.patch(be, 4, 3, 0, 0, 0)).field()).isEqualTo("tensor_count");
  }

  @ParameterizedTest
  @CsvSource({
    "00,00,00,02,33554432,2",
    "00,00,00,00,0,0",
    "01,00,00,00,1,16777216",
    "04,00,00,00,4,67108864",
    "00,00,01,00,65536,256",
    "00,00,00,01,16777216,1",
    "03,00,00,01,16777219,50331649",
    "ff,ff,ff,ff,4294967295,4294967295",
    "02,00,00,03,50331650,33554435"
  })
  void otherVersionBytesAreUnsupportedWithBothReadings(
      String b0, String b1, String b2, String b3, long le, long be) throws Exception {
    int[] b = {Integer.parseInt(b0, 16), Integer.parseInt(b1, 16), Integer.parseInt(b2, 16), Integer.parseInt(b3, 16)};
    byte[] file = sample().versionBytes(b[0], b[1], b[2], b[3]).bytes();
    ReaException e = GgufTesting.reject(file);
    assertRejected(e, Constraint.UNSUPPORTED_VERSION, "version", 4);
    assertThat(e.code().wireName()).isEqualTo("target_unavailable");
    assertThat(e.category().wireName()).isEqualTo("unsupported_target");
    assertThat(e.diagnostics())
        .containsEntry("version_bytes", b0 + b1 + b2 + b3)
        .containsEntry("version_uint32_le", le)
        .containsEntry("version_uint32_be", be)
        .containsEntry("byte_order", "unknown");
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 5, 6, 7})
  void aFileCutInsideTheVersionIsRejectedAtOffset4(int length) throws Exception {
    byte[] file = Arrays.copyOf(sample().bytes(), length);
    assertRejected(GgufTesting.reject(file), Constraint.FILE_FORMAT_REJECTED, "version", 4);
  }

  @Test
  void aFileCutInsideTheCountsNamesTheCount() throws Exception {
    byte[] full = sample().bytes();
    assertRejected(
        GgufTesting.reject(Arrays.copyOf(full, 12)), Constraint.FILE_FORMAT_REJECTED, "tensor_count", 8);
    assertRejected(
        GgufTesting.reject(Arrays.copyOf(full, 20)),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata_kv_count",
        16);
  }

  // ---------------------------------------------------------------------------------------------
  // Counts

  @Test
  void countsAreCheckedAgainstTheBytesLeftBeforeAnythingIsRead() throws Exception {
    // 3 tensors need at least 72 bytes; a file with 71 bytes after the counts cannot hold them.
    byte[] header = GgufBuilder.v3().tensorCount(3).data(Data.NONE).bytes();
    byte[] ok = Arrays.copyOf(header, 24 + 72);
    byte[] shortBy1 = Arrays.copyOf(header, 24 + 71);
    assertRejected(GgufTesting.reject(shortBy1), Constraint.FILE_FORMAT_REJECTED, "tensor_count", 8);
    // With 72 bytes the count passes; the zero bytes then read as empty-named scalar F32
    // tensors, and the second empty name is a duplicate of the first.
    ReaException later = GgufTesting.reject(ok);
    assertThat(later.field()).isEqualTo("tensor[1].name");
    // 2^64-1 KV pairs.
    assertRejected(
        GgufTesting.reject(GgufBuilder.v3().kvCount(-1L).bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata_kv_count",
        16);
    assertRejected(
        GgufTesting.reject(GgufBuilder.v3().tensorCount(Long.MIN_VALUE).bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "tensor_count",
        8);
  }

  @Test
  void countsThatFitTheFileButNotTheCeilingAreResourceExhausted() throws Exception {
    byte[] header = GgufBuilder.v3().tensorCount(100).data(Data.NONE).bytes();
    byte[] file = Arrays.copyOf(header, 24 + 2400);
    ReaException e = GgufTesting.rejectWith(file, Limits.builder().headerCeilingBytes(2000).build());
    assertRejected(e, Constraint.HEADER_CEILING, "tensor_count", 8);
    assertThat(e.diagnostics()).containsEntry("requested_bytes", "2424").containsEntry("over_bytes", "424");
    byte[] kv = Arrays.copyOf(GgufBuilder.v3().kvCount(200).data(Data.NONE).bytes(), 24 + 2800);
    ReaException k = GgufTesting.rejectWith(kv, Limits.builder().headerCeilingBytes(2000).build());
    assertRejected(k, Constraint.HEADER_CEILING, "metadata_kv_count", 16);
    assertThat(k.diagnostics()).containsEntry("requested_bytes", "2824");
  }

  @Test
  void theCeilingCountsTheWholeHeaderIncludingTheTensorDirectory() throws Exception {
    GgufBuilder b = GgufBuilder.v3().kv("general.architecture", str("llama"));
    for (int i = 0; i < 40; i++) {
      b.tensor("blk." + i + ".weight", 0, 1);
    }
    Built built = b.build();
    long hl = built.headerLength();
    assertThat(GgufTesting.readWith(built.bytes(), Limits.builder().headerCeilingBytes(hl).build()).consumed())
        .isEqualTo(hl);
    ReaException e =
        GgufTesting.rejectWith(built.bytes(), Limits.builder().headerCeilingBytes(hl - 1).build());
    assertThat(e.constraint()).isEqualTo(Constraint.HEADER_CEILING);
    assertThat(e.field()).startsWith("tensor[");
  }

  // ---------------------------------------------------------------------------------------------
  // Data offset and header length

  @Test
  void zeroTensorFileEndingAtTheDirectoryHasItsDataOffsetThere() throws Exception {
    Built b = GgufBuilder.v3().kv("general.architecture", str("llama")).data(Data.NONE).build();
    assertThat(b.headerLength() % 32).isNotZero();
    ParsedHeader h = GgufTesting.read(b.bytes());
    assertThat(((FormatFacts.Gguf) h.facts()).tensorDataOffset()).isEqualTo(b.headerLength());
    assertThat(h.headerLength()).isEqualTo(b.headerLength());
  }

  @Test
  void zeroTensorFileWithTheWholeGapHasTheAlignedOffsetAPartialGapIsRejected() throws Exception {
    Built b = GgufBuilder.v3().kv("general.architecture", str("llama")).data(Data.PADDING_ONLY).build();
    long gap = b.dataOffset() - b.headerLength();
    assertThat(gap).isGreaterThan(1);
    ParsedHeader whole = GgufTesting.read(b.bytes());
    assertThat(((FormatFacts.Gguf) whole.facts()).tensorDataOffset()).isEqualTo(b.dataOffset());
    assertThat(whole.headerLength()).isEqualTo(b.headerLength());
    // More bytes after the whole gap are ignored.
    byte[] longer = Arrays.copyOf(b.bytes(), b.bytes().length + 5);
    assertThat(((FormatFacts.Gguf) GgufTesting.read(longer).facts()).tensorDataOffset())
        .isEqualTo(b.dataOffset());
    // One byte of the gap missing: rejected at the directory end.
    byte[] partial = Arrays.copyOf(b.bytes(), b.bytes().length - 1);
    assertRejected(
        GgufTesting.reject(partial), Constraint.FILE_FORMAT_REJECTED, "tensor_data_offset", b.headerLength());
    byte[] one = Arrays.copyOf(b.bytes(), (int) b.headerLength() + 1);
    assertRejected(
        GgufTesting.reject(one), Constraint.FILE_FORMAT_REJECTED, "tensor_data_offset", b.headerLength());
  }

  @Test
  void withTensorsTheAlignedDataStartMayEqualTheFileSizeOnlyWhenAllAreEmpty() throws Exception {
    Built empty = GgufBuilder.v3().tensor("e", 0, 8, 0).data(Data.PADDING_ONLY).build();
    ParsedHeader h = GgufTesting.read(empty.bytes());
    assertThat(((FormatFacts.Gguf) h.facts()).tensorDataOffset()).isEqualTo(empty.bytes().length);
    assertThat(h.tensors().get(0).byteLength()).isZero();
    // The directory end is not aligned and the padding is absent: the data start is past EOF.
    Built unpadded = GgufBuilder.v3().tensor("e", 0, 8, 0).data(Data.NONE).build();
    assertRejected(
        GgufTesting.reject(unpadded.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "tensor_data_offset",
        unpadded.headerLength());
    // A nonempty tensor and the data start at EOF: its range cannot end within the file.
    Built nonempty = GgufBuilder.v3().tensor("e", 0, 8, 0).tensor("f", 0, 1).data(Data.PADDING_ONLY).build();
    assertRejected(
        GgufTesting.reject(nonempty.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "tensor[1].offset",
        nonempty.at("tensor[1].offset"));
  }

  @Test
  void theReaderConsumesExactlyTheHeaderAndItsDigestIsTheHeaderSha256() throws Exception {
    Built b = sample().build();
    GgufTesting.Read r = GgufTesting.readWith(b.bytes(), Limits.defaults());
    assertThat(r.consumed()).isEqualTo(b.headerLength());
    assertThat(r.header().headerLength()).isEqualTo(b.headerLength());
    assertThat(r.consumedSha256())
        .isEqualTo(GgufTesting.sha256(Arrays.copyOf(b.bytes(), (int) b.headerLength())));
    EvidenceRecord rec = GgufTesting.inspectBytes(tmp, "s.gguf", b.bytes());
    assertThat(rec.artifact().headerSha256()).isEqualTo(r.consumedSha256());
    assertThat(rec.artifact().headerLength()).isEqualTo(b.headerLength());
    FormatFacts.Gguf f = (FormatFacts.Gguf) rec.formatFacts();
    assertThat(f.tensorDataOffset()).isEqualTo(b.dataOffset());
    assertThat(rec.tensors().get(2).fileOffset()).isEqualTo(b.dataOffset() + b.tensorOffsets().get(2));
  }

  @Test
  void aMagicOtherThanGgufIsRejectedWhenTheReaderIsCalledDirectly() throws Exception {
    byte[] file = GgufTesting.patch(sample().bytes(), 0, 'G', 'G', 'J', 'T');
    assertRejected(GgufTesting.reject(file), Constraint.FILE_FORMAT_REJECTED, "magic", 0);
  }

  @Test
  void inspectorRunsDetectionAndBuildsTheRecordForBothByteOrders() throws Exception {
    EvidenceRecord le = GgufTesting.inspectBytes(tmp, "le.gguf", sample().bytes());
    EvidenceRecord be = GgufTesting.inspectBytes(tmp, "be.gguf", sample().order(ByteOrder.BIG_ENDIAN).bytes());
    assertThat(le.artifact().format()).isEqualTo("gguf");
    assertThat(withoutDigests(be.metadata())).isEqualTo(withoutDigests(le.metadata()));
    assertThat(be.tensors()).isEqualTo(le.tensors());
    assertThat(be.types()).isEqualTo(le.types());
    assertThat(le.evidenceId()).startsWith("sha256:");
    assertThat(le.coverage().ranges()).isEqualTo("partial"); // the Q4_K tensor
    assertThat(le.tensors()).hasSize(4);
    assertThat(le.metadata()).hasSize(9);
    assertThat(le.metadata().get(2).type().name()).isEqualTo("ARRAY");
    assertThat(le.metadata().get(2).key()).isEqualTo("tokenizer.ggml.tokens");
    assertThat(((dev.rea.core.evidence.MetadataValue.ArrayValue) le.metadata().get(2).value()).elementType().id())
        .isEqualTo(STRING);
  }
}
