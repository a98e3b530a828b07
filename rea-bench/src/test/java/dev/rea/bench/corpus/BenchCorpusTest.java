package dev.rea.bench.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.bench.corpus.BenchCorpus.Entry;
import dev.rea.bench.corpus.BenchCorpus.Item;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark corpus is what issue 7 describes, and REA accepts every file of it: counts,
 * header sizes, vocabularies, sparse data regions, determinism.
 */
class BenchCorpusTest {
  @TempDir static Path dir;

  private static final Map<Item, Entry> ENTRIES = new EnumMap<>(Item.class);
  private static final Map<Item, EvidenceRecord> RECORDS = new EnumMap<>(Item.class);

  @BeforeAll
  static void generateAndInspect() throws Exception {
    ModelInspector inspector = ModelInspector.standard();
    for (Entry e : BenchCorpus.ensureAll(dir)) {
      ENTRIES.put(e.item(), e);
      if (e.item() == Item.DEEPSEEK_SET) {
        continue; // a directory: see aDeepseekLikeSetIsOneCompleteSet
      }
      RECORDS.put(e.item(), inspector.inspect(e.path().toAbsolutePath(), HashMode.HEADER));
    }
  }

  private static MetadataValue.ArrayValue array(EvidenceRecord r, String key) {
    for (MetadataRow row : r.metadata()) {
      if (row.key().equals(key)) {
        return (MetadataValue.ArrayValue) row.value();
      }
    }
    throw new AssertionError("no " + key);
  }

  @Test
  void everyFileIsCompleteEvidenceWithTheGeneratorsSizes() throws Exception {
    for (Item i : Item.values()) {
      if (i == Item.DEEPSEEK_SET) {
        continue;
      }
      Entry e = ENTRIES.get(i);
      EvidenceRecord r = RECORDS.get(i);
      assertThat(r.status()).as(i.name()).isEqualTo("complete");
      assertThat(r.artifact().headerLength()).as(i.name()).isEqualTo(e.headerLength());
      assertThat(r.artifact().fileSize()).as(i.name()).isEqualTo(Files.size(e.path()));
      assertThat(r.tensors()).as(i.name()).hasSize(e.tensors());
      assertThat(r.artifact().format())
          .isEqualTo(i == Item.SAFETENSORS ? "safetensors" : "gguf");
    }
  }

  @Test
  void aDeepseekLikeSetIsOneCompleteSet() throws Exception {
    Entry e = ENTRIES.get(Item.DEEPSEEK_SET);
    dev.rea.core.evidence.SetInspection.Complete c = dev.rea.core.Rea.standard()
        .inspectSet(e.path().toAbsolutePath(), dev.rea.core.options.InspectOptions.defaults())
        .orThrow();
    assertThat(c.set().set().kind()).isEqualTo("safetensors_index");
    assertThat(c.set().members()).hasSize(163);
    assertThat(c.set().totals().tensorCount()).isEqualTo(91_991).isEqualTo(e.tensors());
    assertThat(c.set().warnings()).isEmpty();
    assertThat(c.set().types()).extracting(t -> t.type())
        .containsExactlyInAnyOrder("BF16", "F32", "F8_E4M3");
    // 671B main-model parameters and 14B of the MTP module, as the model card counts them.
    assertThat(c.set().totals().parameterCount().longValue()).isBetween(684_000_000_000L,
        686_000_000_000L);
    long largest = 0;
    for (dev.rea.core.evidence.EvidenceRecord r : c.members()) {
      largest = Math.max(largest, r.artifact().headerLength());
    }
    assertThat(largest).isEqualTo(e.headerLength());
  }

  @Test
  void llama3LikeHasTheIssuesShape() {
    EvidenceRecord r = RECORDS.get(Item.LLAMA3);
    assertThat(array(r, "tokenizer.ggml.tokens").count()).isEqualTo(128_256);
    assertThat(array(r, "tokenizer.ggml.token_type").count()).isEqualTo(128_256);
    assertThat(array(r, "tokenizer.ggml.merges").count()).isEqualTo(280_147);
    // About 7.7 MB of header.
    assertThat(r.artifact().headerLength()).isBetween(7_600_000L, 7_900_000L);
    assertThat(r.tensors()).hasSize(291);
    assertThat(r.tensors().get(0).name()).isEqualTo("token_embd.weight");
    assertThat(r.tensors().get(0).shape()).containsExactly(4096L, 128_256L);
    assertThat(r.types()).extracting(t -> t.type()).containsExactlyInAnyOrder("F32", "Q4_K", "Q6_K");
    // A real Llama-3-8B Q4_K_M file is 4.92 GB.
    assertThat(r.artifact().fileSize()).isBetween(4_800_000_000L, 5_000_000_000L);
    // Previews keep 8 elements; the byte tokens come first.
    MetadataValue.ArrayValue tokens = array(r, "tokenizer.ggml.tokens");
    assertThat(tokens.preview()).hasSize(8);
    assertThat(((MetadataValue.StringValue) tokens.preview().get(0)).value()).isEqualTo("!");
  }

  @Test
  void vocabulariesHoldMultibyteUtf8() {
    Vocabularies.Vocab bpe = Vocabularies.byteLevelBpe(7, 20_000, 256);
    Vocabularies.Vocab spm = Vocabularies.sentencePiece(7, 20_000, 10, 10);
    int[] bpeWidths = widths(bpe.tokens());
    int[] spmWidths = widths(spm.tokens());
    // Byte-level BPE: only 1- and 2-byte sequences (every byte maps to a code point below U+0144).
    assertThat(bpeWidths[2]).isGreaterThan(1000);
    assertThat(bpeWidths[3] + bpeWidths[4]).isZero();
    // SentencePiece: real text in many scripts, '▁' (3 bytes) and emoji (4 bytes).
    assertThat(spmWidths[2]).isGreaterThan(1000);
    assertThat(spmWidths[3]).isGreaterThan(1000);
    assertThat(spmWidths[4]).isGreaterThan(0);
    assertThat(new String(spm.tokens()[3], StandardCharsets.UTF_8)).isEqualTo("<unk>");
    assertThat(spm.types()[3]).isEqualTo(Vocabularies.UNKNOWN);
    assertThat(bpe.types()[20_000 - 1]).isEqualTo(Vocabularies.CONTROL);
    assertThat(new String(bpe.tokens()[20_000 - 256], StandardCharsets.UTF_8))
        .isEqualTo("<|begin_of_text|>");
  }

  /** Counts characters by UTF-8 length (index 1 to 4) over all tokens. */
  private static int[] widths(byte[][] tokens) {
    int[] w = new int[5];
    for (byte[] t : tokens) {
      String s = new String(t, StandardCharsets.UTF_8);
      s.codePoints()
          .forEach(cp -> w[cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4]++);
    }
    return w;
  }

  @Test
  void gemmaLikeHas262kTokensWithScoresAndTypes() {
    EvidenceRecord r = RECORDS.get(Item.GEMMA);
    assertThat(array(r, "tokenizer.ggml.tokens").count()).isEqualTo(262_144);
    assertThat(array(r, "tokenizer.ggml.scores").count()).isEqualTo(262_144);
    assertThat(array(r, "tokenizer.ggml.token_type").count()).isEqualTo(262_144);
    assertThat(r.tensors()).hasSize(2 + 34 * 13);
  }

  @Test
  void moeLikeHasOver3000Tensors() {
    EvidenceRecord r = RECORDS.get(Item.MOE);
    assertThat(r.tensors()).hasSize(4_659);
    assertThat(r.tensors()).extracting(TensorRow::name).contains("blk.23.ffn_down.59.weight");
    assertThat(r.types()).extracting(t -> t.type()).contains("Q8_0", "Q4_K", "Q6_K", "F32");
  }

  @Test
  void safetensorsHas20439TensorsIn2point5MbOfJson() {
    EvidenceRecord r = RECORDS.get(Item.SAFETENSORS);
    assertThat(r.tensors()).hasSize(20_439);
    assertThat(r.artifact().headerLength()).isBetween(2_400_000L, 2_700_000L);
    assertThat(r.metadata()).extracting(MetadataRow::key).containsExactly("format");
  }

  @Test
  void memoryCheckVariantsScaleHeaderAndFile() {
    long header = ENTRIES.get(Item.LLAMA3).headerLength();
    long file = ENTRIES.get(Item.LLAMA3).fileSize();
    Entry small = ENTRIES.get(Item.SMALL_HEADER);
    Entry large = ENTRIES.get(Item.LARGE_FILE);
    // A header about 10x smaller, a file about 10x larger with about the same header.
    assertThat((double) header / small.headerLength()).isBetween(9.0, 11.0);
    assertThat((double) large.fileSize() / file).isBetween(9.0, 11.0);
    assertThat((double) large.headerLength() / header).isBetween(1.0, 1.01);
  }

  @Test
  void hashFileIsOver2GiB() {
    assertThat(ENTRIES.get(Item.HASH).fileSize()).isGreaterThan(1L << 31);
  }

  @Test
  void generationIsDeterministicAndStampsAreReused() throws Exception {
    Path other = dir.resolve("again");
    Entry a = BenchCorpus.generate(Item.SMALL_HEADER, Files.createDirectories(other).resolve("x.gguf"));
    EvidenceRecord again =
        ModelInspector.standard().inspect(a.path().toAbsolutePath(), HashMode.HEADER);
    assertThat(again.artifact().headerSha256())
        .isEqualTo(RECORDS.get(Item.SMALL_HEADER).artifact().headerSha256());
    // ensure() keeps a stamped file: same modification time afterwards.
    Path p = ENTRIES.get(Item.SMALL_HEADER).path();
    var before = Files.getLastModifiedTime(p);
    Entry kept = BenchCorpus.ensure(Item.SMALL_HEADER, dir);
    assertThat(Files.getLastModifiedTime(p)).isEqualTo(before);
    assertThat(kept.headerLength()).isEqualTo(a.headerLength());
  }
}
