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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The full-hash loop: {@code --hash full} inspection of the generated file of more than 2 GiB
 * (header, then SHA-256 of every byte, identity checks, record). The file is read once in setup
 * so later reads come from the page cache, as for {@code openssl dgst -sha256} in
 * {@code scripts/bench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class FullHashBenchmark {
  @Param({"hash-2g.gguf"})
  public String file;

  private Path path;
  private ModelInspector inspector;

  @Setup
  public void setup() throws ReaException {
    path = BenchFiles.file(file);
    inspector = ModelInspector.standard();
    inspector.inspect(path, HashMode.FULL);
  }

  @Benchmark
  public EvidenceRecord inspectFullHash() throws ReaException {
    return inspector.inspect(path, HashMode.FULL);
  }
}
