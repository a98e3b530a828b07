package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.Evidence;
import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.view.ArrayView;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Array element pages (docs/evidence.md, "Array element pages"): complete, bounded, guarded. */
class ArrayElementPagesTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String TOKENS = "tokenizer.ggml.tokens";

  @TempDir Path dir;

  private static Evidence inspect(Path file) throws ReaException {
    Rea rea = Rea.standard();
    return rea.evidence(rea.inspect(file, InspectOptions.defaults()).orThrow());
  }

  /** Pages through a whole array; every page is within 64 KiB and the pages meet end to end. */
  private static List<JsonNode> all(Evidence ev, String key, int limit) throws ReaException {
    List<JsonNode> elements = new ArrayList<>();
    long offset = 0;
    int pages = 0;
    while (true) {
      byte[] page = ev.arrayPage(new ArrayView(key, offset, limit));
      assertThat(page.length).isLessThanOrEqualTo(ViewPages.PAGE_BUDGET_BYTES);
      JsonNode p = JSON.readTree(page);
      assertThat(p.get("kind").asText()).isEqualTo("model-artifact-array-page");
      assertThat(p.get("offset").asText()).isEqualTo(Long.toString(offset));
      assertThat(p.get("elements_omitted")).isEmpty();
      p.get("elements").forEach(elements::add);
      pages++;
      assertThat(pages).isLessThan(10_000);
      if (p.get("next_offset").isNull()) {
        return elements;
      }
      long next = Long.parseLong(p.get("next_offset").asText());
      assertThat(next).isEqualTo(offset + p.get("elements").size());
      offset = next;
    }
  }

  /** The strings of a top-level STRING array, read here from the file's bytes (little-endian). */
  private static List<String> stringsOf(byte[] file, String key) {
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    b.position(16);
    long kvs = b.getLong();
    for (long i = 0; i < kvs; i++) {
      byte[] k = new byte[(int) b.getLong()];
      b.get(k);
      int type = b.getInt();
      boolean wanted = new String(k, StandardCharsets.UTF_8).equals(key);
      List<String> out = wanted ? new ArrayList<>() : null;
      skip(b, type, out);
      if (wanted) {
        return out;
      }
    }
    throw new AssertionError("no key " + key);
  }

  private static void skip(ByteBuffer b, int type, List<String> strings) {
    switch (type) {
      case 0, 1, 7 -> b.position(b.position() + 1);
      case 2, 3 -> b.position(b.position() + 2);
      case 4, 5, 6 -> b.position(b.position() + 4);
      case 10, 11, 12 -> b.position(b.position() + 8);
      case 8 -> {
        byte[] s = new byte[(int) b.getLong()];
        b.get(s);
        if (strings != null) {
          strings.add(new String(s, StandardCharsets.UTF_8));
        }
      }
      case 9 -> {
        int et = b.getInt();
        long n = b.getLong();
        for (long j = 0; j < n; j++) {
          skip(b, et, strings);
        }
      }
      default -> throw new IllegalArgumentException("type " + type);
    }
  }

  @Test
  void pagesConcatenateToTheWholeVocabularyOfACorpusFile() throws Exception {
    Path source = GgufTesting.corpusOrSkip("gguf").resolve("ggml-vocab-llama-spm.gguf");
    Path file = Files.copy(source, dir.resolve("spm.gguf"));
    Evidence ev = inspect(file);
    List<String> expected = stringsOf(Files.readAllBytes(file), TOKENS);
    assertThat(expected).hasSize(32000);
    for (int limit : new int[] {1000, ArrayView.MAX_LIMIT}) {
      List<JsonNode> got = all(ev, TOKENS, limit);
      List<String> texts = new ArrayList<>(got.size());
      got.forEach(n -> texts.add(n.asText()));
      assertThat(texts).isEqualTo(expected);
    }
    // Numbers too: the scores, as the record writes FLOAT32 values.
    List<JsonNode> scores = all(ev, "tokenizer.ggml.scores", ArrayView.MAX_LIMIT);
    MetadataRow row = ev.record().metadata().stream()
        .filter(m -> m.key().equals("tokenizer.ggml.scores")).findFirst().orElseThrow();
    MetadataValue.ArrayValue preview = (MetadataValue.ArrayValue) row.value();
    assertThat(scores).hasSize(32000);
    for (int i = 0; i < preview.preview().size(); i++) {
      assertThat(scores.get(i).asDouble())
          .isEqualTo(((MetadataValue.FloatValue) preview.preview().get(i)).value());
    }
  }

  @Test
  void aFileChangedAfterTheEvidenceWasSavedIsRefused() throws Exception {
    List<GgufBuilder.Value> tokens = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      tokens.add(GgufBuilder.str("tok" + i));
    }
    byte[] bytes = GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .kv(TOKENS, GgufBuilder.array(GgufBuilder.STRING, tokens))
        .bytes();
    Path file = Files.write(dir.resolve("m.gguf"), bytes);
    FileTime when = FileTime.fromMillis(1_700_000_000_000L);
    Files.setLastModifiedTime(file, when);
    Evidence ev = inspect(file);
    assertThat(JSON.readTree(ev.arrayPage(new ArrayView(TOKENS, 500, 1))).get("elements").get(0).asText())
        .isEqualTo("tok500");

    // Same size and modification time, one byte of token 500 changed: the digest sees it.
    int at = indexOf(bytes, "tok500".getBytes(StandardCharsets.UTF_8));
    byte[] changed = bytes.clone();
    changed[at] = 'T';
    Files.write(file, changed);
    Files.setLastModifiedTime(file, when);
    assertChanged(ev, new ArrayView(TOKENS, 0, 10), "value_sha256");

    // A later modification time alone is refused before anything is read.
    Files.write(file, bytes);
    Files.setLastModifiedTime(file, FileTime.fromMillis(1_800_000_000_000L));
    assertChanged(ev, new ArrayView(TOKENS, 0, 10), "modification time");

    // Restored exactly, the pages are served again.
    Files.setLastModifiedTime(file, when);
    assertThat(all(ev, TOKENS, 300)).hasSize(1000);
  }

  @Test
  void hostileCountsInAFileRewrittenUnderTheSameIdentityAllocateNothing() throws Exception {
    byte[] bytes = GgufBuilder.v3()
        .kv("a.first", GgufBuilder.array(GgufBuilder.STRING, GgufBuilder.str("x"), GgufBuilder.str("y")))
        .kv(TOKENS, GgufBuilder.array(GgufBuilder.STRING, GgufBuilder.str("a"), GgufBuilder.str("b")))
        .bytes();
    Path file = Files.write(dir.resolve("h.gguf"), bytes);
    FileTime when = FileTime.fromMillis(1_700_000_000_000L);
    Files.setLastModifiedTime(file, when);
    Evidence ev = inspect(file);
    // The count of the array before the one paged, and then the paged array's own count, set
    // to 2^62 (and the first string's length to 2^62): each must be refused, not allocated.
    int firstCount = 24 + 8 + "a.first".length() + 4 + 4;
    int tokensCount = indexOf(bytes, TOKENS.getBytes(StandardCharsets.UTF_8)) + TOKENS.length() + 4 + 4;
    for (int offset : new int[] {firstCount, tokensCount, firstCount + 8}) {
      byte[] hostile = bytes.clone();
      ByteBuffer.wrap(hostile).order(ByteOrder.LITTLE_ENDIAN).putLong(offset, 1L << 62);
      Files.write(file, hostile);
      Files.setLastModifiedTime(file, when);
      assertChanged(ev, new ArrayView(TOKENS, 0, ArrayView.MAX_LIMIT), "");
    }
  }

  @Test
  void viewsOfWhatIsNotAnArrayWithADigestAreBadViews() throws Exception {
    Path file = Files.write(dir.resolve("s.gguf"), GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama")).bytes());
    Evidence ev = inspect(file);
    assertThatThrownBy(() -> ev.arrayPage(new ArrayView("general.architecture", 0, 1)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW));
    assertThatThrownBy(() -> ev.arrayPage(new ArrayView("no.such.key", 0, 1)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW));
    assertThat(ArrayView.parseIfArray("{\"kind\":\"model-artifact\",\"collection\":\"metadata\"}"
        .getBytes(StandardCharsets.UTF_8))).isNull();
    assertThat(ArrayView.parseIfArray(("{\"kind\":\"model-artifact\",\"collection\":\"array\","
        + "\"key\":\"k\",\"offset\":5,\"limit\":7}").getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(new ArrayView("k", 5, 7));
    assertThatThrownBy(() -> ArrayView.parseIfArray(("{\"kind\":\"model-artifact\",\"collection\":"
        + "\"array\",\"key\":\"k\",\"limit\":4097}").getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("view.limit"));
    assertThatThrownBy(() -> ArrayView.parseIfArray(("{\"kind\":\"model-artifact\",\"collection\":"
        + "\"array\",\"key\":\"k\",\"keys\":[]}").getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("view.keys"));
  }

  private static void assertChanged(Evidence ev, ArrayView view, String messagePart) {
    assertThatThrownBy(() -> ev.arrayPage(view))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).as(e.getMessage()).isEqualTo(Constraint.TARGET_CHANGED);
          assertThat(e.getMessage()).contains(messagePart);
        });
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
