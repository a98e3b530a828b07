package dev.rea.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** {@link HeaderInspectionBenchmark} over the generated GGUF files. */
@State(Scope.Benchmark)
public class GgufInspectBenchmark extends HeaderInspectionBenchmark {
  /** Corpus file name (see {@code BenchCorpus.Item}). */
  @Param({
    "llama3-like.gguf",
    "gemma-like.gguf",
    "moe-like.gguf",
    "llama3-small-header.gguf",
    "llama3-10x-file.gguf"
  })
  public String file;

  @Override
  protected String file() {
    return file;
  }
}
