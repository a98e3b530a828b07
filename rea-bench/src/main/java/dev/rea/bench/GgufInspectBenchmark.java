package dev.rea.bench;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.inspect.HashMode;
import dev.rea.core.inspect.ModelInspector;
import java.nio.file.Path;
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
 * Header inspection of the generated GGUF files through {@link ModelInspector}: stat, open,
 * identity check, detection, parse and strict validation of every header byte, header SHA-256,
 * the Evidence record and its {@code evidence_id} (RFC 8785 + SHA-256). Sample mode, so JMH
 * prints the median ({@code p0.50}) the targets are stated in.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class GgufInspectBenchmark {
  /** Corpus file name (see {@code BenchCorpus.Item}). */
  @Param({
    "llama3-like.gguf",
    "gemma-like.gguf",
    "moe-like.gguf",
    "llama3-small-header.gguf",
    "llama3-10x-file.gguf"
  })
  public String file;

  private Path path;
  private ModelInspector inspector;

  @Setup
  public void setup() {
    path = BenchFiles.file(file);
    inspector = ModelInspector.standard();
  }

  @Benchmark
  public EvidenceRecord inspectHeader() throws ReaException {
    return inspector.inspect(path, HashMode.HEADER);
  }
}
