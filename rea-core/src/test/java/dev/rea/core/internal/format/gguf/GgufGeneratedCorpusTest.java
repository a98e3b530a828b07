package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.Warning;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file of {@code ../shared/corpus/gguf-generated/} with the verdict CONTRACT section 8
 * gives it (not the other readers' verdicts in its {@code VERDICTS.tsv}), and why. The
 * {@code handcrafted/} and {@code gguf-py-writer/} files are committed as test resources and
 * always checked; {@code derived-big-endian/} only when the corpus is present. Every file goes
 * through {@link dev.rea.core.internal.inspect.ModelInspector}.
 */
class GgufGeneratedCorpusTest {
  @TempDir Path tmp;

  /**
   * One row: the file (relative to {@code gguf-generated/}), the verdict and why. Accepted files
   * list version, byte order, alignment, data offset, tensor count and the limitation and warning
   * codes (comma-separated, limitations first); rejected files the constraint, field and offset.
   */
  private record Row(
      String file,
      Constraint constraint,
      String field,
      long offset,
      int version,
      String order,
      long alignment,
      long dataOffset,
      int tensors,
      String codes,
      String why) {}

  private static Row accept(
      String file,
      int version,
      String order,
      long alignment,
      long dataOffset,
      int tensors,
      String codes,
      String why) {
    return new Row(file, null, null, -1, version, order, alignment, dataOffset, tensors, codes, why);
  }

  private static Row reject(String file, Constraint c, String field, long offset, String why) {
    return new Row(file, c, field, offset, 0, null, 0, 0, 0, null, why);
  }

  static final List<Row> TABLE =
      List.of(
          reject("handcrafted/align-i32.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].type", 49, "general.alignment must be UINT32; this one is INT32 (upstream rejects too)"),
          reject("handcrafted/align-u64.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].type", 49, "general.alignment must be UINT32; this one is UINT64"),
          reject("handcrafted/align0.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].value", 53, "alignment 0 is not a positive multiple of 8"),
          reject("handcrafted/align1.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].value", 53, "alignment 1 is not a multiple of 8 (C and gguf-py accept powers of two)"),
          accept("handcrafted/align24.gguf", 3, "little", 24, 168, 2, "", "24 is a multiple of 8, so accepted although not a power of two; data start 168, offsets 0 and 264"),
          accept("handcrafted/align8.gguf", 3, "little", 8, 152, 2, "", "alignment 8 is the smallest accepted"),
          reject("handcrafted/arr-count-huge.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].value.count", 41, "array count 2^62 needs more bytes than the file has; nothing allocated"),
          reject("handcrafted/arr-elem-type-13.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].value.element_type", 37, "array element type 13 is not a GGUF value type"),
          accept("handcrafted/arr-empty-u8.gguf", 3, "little", 32, 49, 0, "", "an empty UINT8 array is complete with count 0"),
          accept("handcrafted/arr-nested.gguf", 3, "little", 32, 65, 0, "", "nested arrays are accepted up to 32 levels (this one has 2)"),
          accept("handcrafted/data-last-tensor-unpadded.gguf", 3, "little", 32, 160, 2, "", "the last range ends exactly at EOF; padding after it is not required"),
          accept("handcrafted/data-trailing-bytes.gguf", 3, "little", 32, 160, 2, "", "bytes after the data section are ignored"),
          reject("handcrafted/data-truncated-1-byte.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[1].offset", 149, "the last known range ends 1 byte past EOF"),
          reject("handcrafted/dim-negative.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims", 82, "dim 2^64-1 is a valid u64 but F32 storage would exceed 2^64-1 bytes, so the range cannot lie within the file"),
          accept("handcrafted/dim-zero-extent.gguf", 3, "little", 32, 160, 2, "", "an empty tensor [32, 0] may share offset 0 with a nonempty one; it occupies no bytes"),
          reject("handcrafted/dims-product-overflow.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims[1]", 90, "[2^32, 2^32] has a product of 2^64 > 2^64-1"),
          reject("handcrafted/dir-end-no-padding-no-data.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor_data_offset", 109, "with tensors the aligned data start (128) must not exceed the file size (109)"),
          reject("handcrafted/key-dup.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[1].key", 41, "duplicate key 'k'"),
          reject("handcrafted/key-empty.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].key", 24, "the empty key does not match the key grammar; the offset is its length, which says 0"),
          reject("handcrafted/key-invalid-utf8.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].key", 32, "invalid UTF-8 in a key"),
          reject("handcrafted/key-uppercase-space.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].key", 32, "'General Arch' does not match [a-z0-9]+([._-][a-z0-9]+)*"),
          accept("handcrafted/name-63.gguf", 3, "little", 32, 192, 1, "", "63-byte name"),
          accept("handcrafted/name-64.gguf", 3, "little", 32, 192, 1, "", "64 bytes is the longest accepted name (C rejects it: its maximum is 63)"),
          reject("handcrafted/name-dup.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[1].name", 102, "duplicate tensor name 'x'"),
          accept("handcrafted/name-empty.gguf", 3, "little", 32, 128, 1, "", "empty tensor names are accepted"),
          reject("handcrafted/name-invalid-utf8.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].name", 77, "invalid UTF-8 in a tensor name"),
          accept("handcrafted/ndims-0-scalar.gguf", 3, "little", 32, 96, 1, "", "n_dims 0 is a scalar: shape [], 1 element, 4 bytes"),
          reject("handcrafted/ndims-5.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].n_dims", 78, "more than 4 dimensions"),
          reject("handcrafted/nkv-negative.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata_kv_count", 16, "metadata_kv_count 2^63 cannot fit in the 0 bytes left"),
          reject("handcrafted/ntensors-huge.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor_count", 8, "tensor_count 2^40 cannot fit in the 0 bytes left"),
          reject("handcrafted/offset-gap.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[1].offset", 149, "gaps are allowed, but tensor 1's range then ends at EOF + 12"),
          reject("handcrafted/offset-misaligned.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[1].offset", 149, "offset 260 is not a multiple of 32"),
          reject("handcrafted/offset-overlap-all-zero.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[1].offset", 149, "two nonempty tensors at offset 0"),
          reject("handcrafted/offset-swapped-order.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].offset", 109, "any order is allowed, but tensor 0 at 256 then ends past EOF"),
          accept("handcrafted/ok-minimal-header-only.gguf", 3, "little", 32, 24, 0, "", "24-byte header, no KV, no tensors: data offset = directory end = EOF"),
          accept("handcrafted/ok-v2-le.gguf", 2, "little", 32, 160, 2, "", "little-endian v2"),
          accept("handcrafted/ok-v3-le.gguf", 3, "little", 32, 160, 2, "", "little-endian v3"),
          accept("handcrafted/ovf-0x2p62x4-f32.gguf", 3, "little", 32, 128, 1, "", "[0, 2^62, 4] is empty (the 0 comes first); data start may equal EOF when every tensor is empty"),
          reject("handcrafted/ovf-2p31x2p31x4-f32.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims[2]", 98, "[2^31, 2^31, 4] reaches 2^64 at dims[2]"),
          reject("handcrafted/ovf-2p32x2p32-f32.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims[1]", 90, "[2^32, 2^32] reaches 2^64 at dims[1]"),
          reject("handcrafted/ovf-2p32x2p32-i8.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims[1]", 90, "[2^32, 2^32] reaches 2^64 at dims[1] (ID 24)"),
          reject("handcrafted/ovf-2p33m4sq-i8.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims[1]", 90, "[2^33-4, 2^33-4] exceeds 2^64-1 at dims[1]"),
          reject("handcrafted/ovf-2p62-f32.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims", 82, "2^62 F32 elements need 2^64 bytes, which cannot lie within the file"),
          reject("handcrafted/ovf-2p62x4x0-f32.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims[1]", 90, "[2^62, 4, 0] reaches 2^64 at dims[1], before the 0"),
          accept("handcrafted/ovf-2p63m1-i8.gguf", 3, "little", 32, 128, 1, "ambiguous_type_id,short_under_every_layout", "product 2^63-1 fits; ID 24 is AMBIGUOUS_24 (I8 now, I16/I32 in older releases) with unknown length, and the tensor starts before EOF (accepted, CONTRACT section 8); even I8 needs 2^63-1 bytes, so a short_under_every_layout warning says the file cannot hold it"),
          reject("handcrafted/partial-alignment-gap.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor_data_offset", 109, "the data start 128 is past EOF 127"),
          reject("handcrafted/str-len-huge.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].value", 37, "string length 2^62 is more than the bytes left"),
          accept("handcrafted/type-31-removed.gguf", 3, "little", 32, 128, 1, "removed_type", "removed Q4_0_4_4 keeps its one released layout (18 bytes per 32) with a removed_type warning"),
          accept("handcrafted/type-4-removed.gguf", 3, "little", 32, 128, 1, "unknown_type_id", "ID 4 is UNKNOWN_4: byte length null and a limitation"),
          accept("handcrafted/type-43-unknown.gguf", 3, "little", 32, 128, 1, "unknown_type_id,unknown_type_id", "ID 43 is UNKNOWN_43: byte length null, a limitation and the warning (no released ggml defines it)"),
          reject("handcrafted/type-q4_0-row-48.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].dims[0]", 82, "a Q4_0 row of 48 elements is not a whole number of 32-element blocks"),
          accept("handcrafted/type-q4_k-ok.gguf", 3, "little", 32, 128, 1, "k_quant_layout_ambiguous", "Q4_K [256]: row multiple of 64 holds; byte length unknown (K64/K256) with a limitation"),
          reject("handcrafted/type-q4_k-row-64.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor[0].offset", 94, "64 is a whole K row, but the nonempty tensor of unknown length starts at EOF (data start 128 = file size)"),
          accept("handcrafted/type-q8_1-ok.gguf", 3, "little", 32, 128, 1, "q8_1_layout_ambiguous", "Q8_1: byte length unknown (36 or 40 bytes per block) with a limitation"),
          reject("handcrafted/val-bool-2.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].value", 48, "BOOL byte 2"),
          reject("handcrafted/val-string-invalid-utf8.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].value", 56, "invalid UTF-8 in a string value"),
          reject("handcrafted/val-type-13.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[0].type", 33, "value type 13 is not a GGUF value type"),
          reject("handcrafted/ver-bytes-00000002-be-v2.gguf", Constraint.UNSUPPORTED_VERSION, "version", 4, "big-endian v2 is refused (gguf-py reads it)"),
          accept("handcrafted/ver-bytes-00000003-be-v3.gguf", 3, "big", 32, 160, 2, "", "big-endian v3"),
          reject("handcrafted/ver-le-0x00010000.gguf", Constraint.UNSUPPORTED_VERSION, "version", 4, "bytes 00 00 01 00 are no supported version; byte order is not guessed"),
          reject("handcrafted/ver0.gguf", Constraint.UNSUPPORTED_VERSION, "version", 4, "version 0"),
          reject("handcrafted/ver1.gguf", Constraint.UNSUPPORTED_VERSION, "version", 4, "GGUF v1"),
          reject("handcrafted/ver4.gguf", Constraint.UNSUPPORTED_VERSION, "version", 4, "version 4"),
          reject("handcrafted/zero-tensors-trailing-garbage.gguf", Constraint.FILE_FORMAT_REJECTED, "tensor_data_offset", 69, "zero tensors: 3 of the 27 padding bytes present is a partial gap"),
          accept("gguf-py-writer/gguf-py-be-v3.gguf", 3, "big", 32, 864, 6, "k_quant_layout_ambiguous", "gguf-py big-endian v3 writer output"),
          reject("gguf-py-writer/gguf-py-le-v3-align1.gguf", Constraint.FILE_FORMAT_REJECTED, "metadata[12].value", 593, "alignment 1 is not a multiple of 8"),
          accept("gguf-py-writer/gguf-py-le-v3-align64.gguf", 3, "little", 64, 960, 6, "k_quant_layout_ambiguous", "alignment 64 from metadata"),
          accept("gguf-py-writer/gguf-py-le-v3-nested-array.gguf", 3, "little", 32, 672, 0, "", "a 2-level nested array is accepted"),
          accept("gguf-py-writer/gguf-py-le-v3-notensors-padded.gguf", 3, "little", 32, 576, 0, "", "zero tensors with the whole padding present: data offset is the aligned 576"),
          accept("gguf-py-writer/gguf-py-le-v3.gguf", 3, "little", 32, 864, 6, "k_quant_layout_ambiguous", "gguf-py little-endian v3: Q4_K length unknown (limitation)"),
          accept("derived-big-endian/ggml-vocab-bert-bge.BE.gguf", 3, "big", 32, 627549, 0, "", "big-endian conversion of the bert-bge vocab: same 20 KV"),
          accept("derived-big-endian/ollama_ollama-llama-2-tiny-random.BE.gguf", 3, "big", 32, 724416, 12, "", "big-endian conversion of the tiny llama: same 12 tensors"));

  @Test
  void committedGeneratedFilesGetTheContractVerdict() throws Exception {
    int checked = 0;
    for (Row r : TABLE) {
      if (r.file().startsWith("derived-big-endian/")) {
        continue;
      }
      byte[] bytes = GgufTesting.resource(r.file());
      check(r, GgufTesting.write(tmp, r.file().replace('/', '_'), bytes));
      checked++;
    }
    assertThat(checked).isEqualTo(70);
  }

  @Test
  void everyCorpusGeneratedFileGetsTheContractVerdict() throws Exception {
    Path dir = GgufTesting.corpusOrSkip("gguf-generated");
    Set<String> present;
    try (Stream<Path> s = Files.walk(dir)) {
      present =
          s.filter(p -> p.getFileName().toString().endsWith(".gguf"))
              .map(p -> dir.relativize(p).toString().replace('\\', '/'))
              .collect(Collectors.toCollection(TreeSet::new));
    }
    Set<String> listed = new TreeSet<>();
    for (Row r : TABLE) {
      listed.add(r.file());
      check(r, dir.resolve(r.file()));
    }
    assertThat(listed).as("the table lists every generated file").isEqualTo(present);
  }

  private static void check(Row r, Path file) {
    String what = r.file() + " (" + r.why() + ")";
    if (r.constraint() == null) {
      EvidenceRecord e;
      try {
        e = GgufTesting.inspect(file);
      } catch (ReaException x) {
        throw new AssertionError(what + " was rejected: " + x.getMessage(), x);
      }
      FormatFacts.Gguf f = (FormatFacts.Gguf) e.formatFacts();
      assertThat(f.version()).as(what).isEqualTo(r.version());
      assertThat(f.byteOrder()).as(what).isEqualTo(r.order());
      assertThat(f.alignment()).as(what).isEqualTo(r.alignment());
      assertThat(f.tensorDataOffset()).as(what).isEqualTo(r.dataOffset());
      assertThat(e.tensors()).as(what).hasSize(r.tensors());
      List<String> codes = new ArrayList<>();
      for (Limitation l : e.limitations()) {
        codes.add(l.code());
      }
      for (Warning w : e.warnings()) {
        codes.add(w.code());
      }
      assertThat(String.join(",", codes)).as(what).isEqualTo(r.codes());
    } else {
      ReaException x = catchThrowableOfType(() -> GgufTesting.inspect(file), ReaException.class);
      assertThat(x).as(what + " must be rejected").isNotNull();
      assertThat(x.constraint()).as(what + ": " + x.getMessage()).isEqualTo(r.constraint());
      assertThat(x.field()).as(what).isEqualTo(r.field());
      assertThat(x.offset()).as(what).isEqualTo(r.offset());
    }
  }
}
