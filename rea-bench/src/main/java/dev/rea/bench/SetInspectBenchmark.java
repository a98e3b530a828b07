package dev.rea.bench;

import dev.rea.core.Rea;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.InspectOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Issue 18's in-process target: the 163-member DeepSeek-V3-shaped set ({@code BenchCorpus
 * DEEPSEEK_SET}) inspected as a set ({@link Rea#inspectSet}, members handed to a sink as the CLI
 * does: index read, every member inspected, cross-checked and dropped) against the same members
 * inspected one after another as single files ({@link Rea#inspect}, each record with its
 * {@code evidence_id}). The target is {@code set} at most 2x {@code membersOneByOne}. Sample
 * mode, median ({@code p0.50}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
@Fork(1)
public class SetInspectBenchmark {
  private Rea rea;
  private Path dir;
  private List<Path> members;

  @Setup
  public void setup() throws IOException {
    dir = BenchFiles.file("deepseek-v3-like");
    rea = Rea.standard();
    try (Stream<Path> s = Files.list(dir)) {
      members = s.filter(p -> p.getFileName().toString().endsWith(".safetensors")).sorted().toList();
    }
    if (members.size() != 163) {
      throw new IllegalStateException(members.size() + " members in " + dir + ", expected 163");
    }
  }

  @Benchmark
  public void set(Blackhole bh) {
    SetInspection r = rea.inspectSet(dir, InspectOptions.defaults(), (k, rec) -> bh.consume(rec));
    if (!(r instanceof SetInspection.Complete c)) {
      throw new IllegalStateException("the set failed: " + r);
    }
    bh.consume(c.set());
  }

  @Benchmark
  public void membersOneByOne(Blackhole bh) {
    for (Path m : members) {
      Inspection i = rea.inspect(m, InspectOptions.defaults());
      if (!(i instanceof Inspection.Complete c)) {
        throw new IllegalStateException("member failed: " + m + ": " + i);
      }
      EvidenceRecord r = c.record();
      bh.consume(r);
    }
  }
}
