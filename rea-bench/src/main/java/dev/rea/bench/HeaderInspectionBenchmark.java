package dev.rea.bench;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Header inspection of one generated file through {@link ModelInspector#inspect(Path,
 * HashMode)}: stat, open, identity check, detection, parse and strict validation of every header
 * byte, header SHA-256, the Evidence record and its {@code evidence_id} (RFC 8785 + SHA-256).
 * Sample mode, so JMH prints the median ({@code p0.50}) the targets are stated in. Each
 * subclass names its files with a {@code @Param} field (JMH benchmark inheritance).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public abstract class HeaderInspectionBenchmark {
  private Path path;
  private ModelInspector inspector;

  /** @return the corpus file name of this trial (the subclass's {@code @Param}) */
  protected abstract String file();

  @Setup
  public void setup() {
    path = BenchFiles.file(file());
    inspector = ModelInspector.standard();
  }

  @Benchmark
  public EvidenceRecord inspectHeader() throws ReaException {
    return inspector.inspect(path, HashMode.HEADER);
  }
}
