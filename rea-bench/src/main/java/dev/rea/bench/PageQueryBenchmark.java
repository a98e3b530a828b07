package dev.rea.bench;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.view.IndexedEvidence;
import dev.rea.core.internal.view.RetainedEvidenceStore;
import dev.rea.core.internal.view.ViewPages;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One page query over retained Evidence with 20,439 tensors, as {@code inspect_analysis_view}
 * answers it: look the record up in the {@link RetainedEvidenceStore} by {@code evidence_id},
 * parse and validate the view JSON, select from the record's index and render the page. The
 * record is the inspection of the generated {@code sharded-20k.safetensors}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PageQueryBenchmark {
  /** Views, from the first page of everything to a filtered page deep in the collection. */
  @Param({"first", "deep", "name", "type-deep", "fields"})
  public String view;

  private RetainedEvidenceStore store;
  private String evidenceId;
  private byte[] viewJson;

  @Setup
  public void setup() throws ReaException {
    EvidenceRecord r =
        ModelInspector.standard()
            .inspect(BenchFiles.file("sharded-20k.safetensors"), HashMode.HEADER);
    if (r.tensors().size() < 20_000) {
      throw new IllegalStateException("expected at least 20,000 tensors: " + r.tensors().size());
    }
    store = RetainedEvidenceStore.of(Limits.defaults());
    evidenceId = store.retain(IndexedEvidence.of(r)).evidenceId();
    String json;
    switch (view) {
      case "first":
        json = "{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}";
        break;
      case "deep":
        json = "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"offset\":15000,\"limit\":256}";
        break;
      case "name":
        json =
            "{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
                + "\"names\":[\"model.layers.40.mlp.experts.99.up_proj.weight\"]}";
        break;
      case "type-deep":
        json =
            "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"types\":[\"BF16\"],"
                + "\"offset\":19000,\"limit\":64}";
        break;
      case "fields":
        json =
            "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"offset\":10000,"
                + "\"limit\":256,\"fields\":[\"name\",\"shape\",\"file_offset\"]}";
        break;
      default:
        throw new IllegalArgumentException(view);
    }
    viewJson = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    ViewPage p = page();
    if (p.rowIndices().length == 0) {
      throw new IllegalStateException("view " + view + " returned no rows: " + p.text());
    }
  }

  @Benchmark
  public ViewPage page() throws ReaException {
    IndexedEvidence ev = store.get(evidenceId);
    ViewRequest request = ViewRequest.parse(viewJson, ViewRequest.Mode.ANALYSIS);
    return ViewPages.answer(ev, request, SourceKind.RETAINED_EVIDENCE);
  }
}
