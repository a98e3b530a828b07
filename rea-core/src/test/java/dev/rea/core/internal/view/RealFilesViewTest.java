package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.EvidenceFiles;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewCollection;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Summaries and views over real model files: the committed llama-spm vocabulary, GGUF files
 * written by {@link GgufBuilder} (a chat-template fixture and a 20,000-tensor file), and, when
 * {@code ../shared/corpus} is present, every corpus file that inspects successfully.
 */
class RealFilesViewTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path tmp;

  static JsonNode summary(EvidenceRecord r) {
    return JSON.readTree(ModelArtifactSummary.render(IndexedEvidence.of(r), null));
  }

  static String headline(JsonNode summary, String key) {
    for (JsonNode h : summary.get("headline_metadata")) {
      if (h.get("key").stringValue().equals(key)) {
        return h.get("type").stringValue() + " " + h.get("value").asString();
      }
    }
    return null;
  }

  @Test
  void llamaSpmVocabularySummaryNamesArchitectureAndTokenizerModel() throws ReaException {
    Path file = GgufTesting.resourceFile(tmp, "real/ggml-vocab-llama-spm.gguf.gz");
    EvidenceRecord r = GgufTesting.inspect(file);
    JsonNode s = summary(r);
    assertThat(headline(s, "general.architecture")).isEqualTo("STRING llama");
    assertThat(headline(s, "tokenizer.ggml.model")).isEqualTo("STRING llama");
    assertThat(s.get("counts").get("metadata").intValue()).isEqualTo(22);
    assertThat(s.get("counts").get("tensors").intValue()).isZero();
    assertThat(s.get("artifact").get("format").stringValue()).isEqualTo("gguf");
    assertThat(s.get("artifact").get("file_size").stringValue()).isEqualTo("723869");
    assertThat(s.get("parent_evidence_id").stringValue()).isEqualTo(r.evidenceId());
    // The 32000-token vocabulary is an array: never headline, listed as an array omission.
    assertThat(headline(s, "tokenizer.ggml.tokens")).isNull();
    JsonNode page = JSON.readTree(ViewPages.answer(IndexedEvidence.of(r),
        new ViewRequest(ViewCollection.METADATA, null, List.of("tokenizer.ggml.tokens"), null, null,
            null, List.of("count", "preview_complete"), 0, 32), SourceKind.RETAINED_EVIDENCE).json());
    assertThat(JSON.writeValueAsString(page.get("rows").get(0)))
        .matches("\\{\"index\":\\d+,\"count\":\"32000\",\"preview_complete\":false}");
    assertThat(JSON.writeValueAsString(page.get("array_omissions")))
        .isEqualTo("[\"tokenizer.ggml.tokens\"]");
  }

  @Test
  void chatTemplateFixtureFiles() throws ReaException {
    byte[] defaultOnly = GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .kv("tokenizer.chat_template", GgufBuilder.str("{{ bos_token }}{% for m in messages %}{% endfor %}"))
        .build().bytes();
    byte[] namesOnly = GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .kv("tokenizer.chat_templates", GgufBuilder.array(8, GgufBuilder.str("tool_use"), GgufBuilder.str("rag")))
        .build().bytes();
    byte[] named = GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .kv("tokenizer.chat_templates", GgufBuilder.array(8, GgufBuilder.str("tool_use"), GgufBuilder.str("rag")))
        .kv("tokenizer.chat_template.tool_use", GgufBuilder.str("{% for t in tools %}{% endfor %}"))
        .kv("tokenizer.chat_template.rag", GgufBuilder.str(""))
        .build().bytes();
    assertThat(JSON.writeValueAsString(
            summary(GgufTesting.inspectBytes(tmp, "default.gguf", defaultOnly)).get("chat_template")))
        .isEqualTo("{\"default\":true,\"named\":[],\"names_only_inventory\":false}");
    assertThat(JSON.writeValueAsString(
            summary(GgufTesting.inspectBytes(tmp, "names-only.gguf", namesOnly)).get("chat_template")))
        .isEqualTo("{\"default\":false,\"named\":[],\"names_only_inventory\":true}");
    assertThat(JSON.writeValueAsString(
            summary(GgufTesting.inspectBytes(tmp, "named.gguf", named)).get("chat_template")))
        .isEqualTo("{\"default\":false,\"named\":[\"tool_use\"],\"names_only_inventory\":true}");
  }

  @Test
  void pagingA20000TensorFileBy256VisitsEveryRowOnce() throws Exception {
    GgufBuilder b = GgufBuilder.v3().kv("general.architecture", GgufBuilder.str("llama"));
    for (int i = 0; i < 20_000; i++) {
      b.tensor("blk." + i + ".ffn_up.weight", 0, 1); // F32, one element
    }
    Path model = GgufTesting.write(tmp, "many.gguf", b.build().bytes());
    EvidenceRecord r = ModelInspector.standard().inspect(model, HashMode.HEADER);
    assertThat(r.tensors()).hasSize(20_000);

    // Through an evidence file, as inspect-analysis-view reads it.
    KeyRing ring = KeyRing.open(tmp.resolve("home"));
    EvidenceRecord signed = new EvidenceSigner(ring).sign(r);
    Path evidence = tmp.resolve("many-evidence.json");
    EvidenceFiles.writeAtomically(evidence, EvidenceJson.bundleBytes(List.of(signed)));
    IndexedEvidence ev = EvidenceLoader.select(
        new EvidenceLoader(EvidenceVerifier.standard(ring)).loadFile(evidence), null);

    BitSet seen = new BitSet();
    int visits = 0;
    Integer offset = 0;
    while (offset != null) {
      ViewPage p = ViewPages.answer(ev,
          new ViewRequest(ViewCollection.TENSORS, null, null, null, null, null, null, offset, 256),
          SourceKind.EVIDENCE_FILE);
      assertThat(p.json().length).isLessThanOrEqualTo(ViewPages.PAGE_BUDGET_BYTES);
      JsonNode page = JSON.readTree(p.json());
      for (JsonNode row : page.get("rows")) {
        int i = row.get("index").intValue();
        assertThat(seen.get(i)).as("row %d twice", i).isFalse();
        seen.set(i);
        visits++;
        assertThat(row.get("name").stringValue()).isEqualTo("blk." + i + ".ffn_up.weight");
        assertThat(row.get("byte_length").stringValue()).isEqualTo("4");
      }
      offset = p.nextOffset();
    }
    assertThat(visits).isEqualTo(20_000);
    assertThat(seen.cardinality()).isEqualTo(20_000);
  }

  @Test
  void everyCorpusFileRoundTripsThroughSignedEvidence() throws Exception {
    Path corpus = GgufTesting.corpusOrSkip("");
    KeyRing ring = KeyRing.open(tmp.resolve("home"));
    EvidenceSigner signer = new EvidenceSigner(ring);
    EvidenceLoader loader = new EvidenceLoader(EvidenceVerifier.standard(ring));
    List<Path> files = new ArrayList<>();
    for (String sub : List.of("gguf", "safetensors", "gguf-generated")) {
      try (Stream<Path> s = Files.walk(corpus.resolve(sub))) {
        s.filter(Files::isRegularFile)
            .filter(p -> p.toString().endsWith(".gguf") || p.toString().endsWith(".safetensors"))
            .sorted()
            .forEach(files::add);
      }
    }
    int inspected = 0;
    for (Path f : files) {
      EvidenceRecord r;
      try {
        r = ModelInspector.standard().inspect(f.toAbsolutePath(), HashMode.HEADER);
      } catch (ReaException e) {
        continue; // refused files have no Evidence to carry
      }
      inspected++;
      EvidenceRecord signed = signer.sign(r);
      EvidenceLoader.Loaded loaded = loader.load(EvidenceJson.recordBytes(signed, true));
      assertThat(loaded.records().get(0).record()).as(f.toString()).isEqualTo(signed);
      IndexedEvidence ev = loaded.records().get(0);
      for (ViewCollection c : ViewCollection.values()) {
        if (c == ViewCollection.MEMBERS) {
          continue; // a model set's collection (SetViewsTest)
        }
        ViewPage p = ViewPages.answer(ev, ViewRequest.all(c), SourceKind.EVIDENCE_FILE);
        int n = c == ViewCollection.TENSORS ? r.tensors().size()
            : c == ViewCollection.METADATA ? r.metadata().size() : r.types().size();
        assertThat(p.totalMatches()).as(f + " " + c).isEqualTo(n);
        assertThat(p.json().length).isLessThanOrEqualTo(ViewPages.PAGE_BUDGET_BYTES);
      }
      ModelArtifactSummary.render(ev, null);
    }
    System.out.printf("corpus: %d of %d files inspected, signed, re-imported and paged%n",
        inspected, files.size());
    assertThat(inspected).isGreaterThan(20);
  }
}
