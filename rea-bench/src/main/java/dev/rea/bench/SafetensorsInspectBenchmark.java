package dev.rea.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * {@link HeaderInspectionBenchmark} over the 20,439-tensor safetensors file (2.5 MB JSON) with
 * every strict check on: UTF-8 and control-byte passes, strict JSON, duplicate keys,
 * dtype/shape/storage checks, contiguous ranges, rows in code-point order.
 */
@State(Scope.Benchmark)
public class SafetensorsInspectBenchmark extends HeaderInspectionBenchmark {
  /** Corpus file name (see {@code BenchCorpus.Item}). */
  @Param({"sharded-20k.safetensors"})
  public String file;

  @Override
  protected String file() {
    return file;
  }
}
