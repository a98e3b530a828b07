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
 * Header inspection of the 20,439-tensor safetensors file (2.5 MB JSON) with every strict check
 * on: UTF-8 and control-byte passes, strict JSON, duplicate keys, dtype/shape/storage checks,
 * contiguous ranges, rows in code-point order, record and {@code evidence_id}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SafetensorsInspectBenchmark {
  @Param({"sharded-20k.safetensors"})
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
