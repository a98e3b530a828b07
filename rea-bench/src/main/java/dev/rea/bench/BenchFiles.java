package dev.rea.bench;

import dev.rea.bench.corpus.BenchCorpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where the benchmarks find the corpus: the directory named by the system property {@code
 * rea.bench.corpus}, else {@code java.io.tmpdir/rea-bench-corpus}. Missing or stale files are
 * generated there ({@link BenchCorpus#ensure}).
 */
final class BenchFiles {
  /** System property naming the corpus directory. */
  static final String PROPERTY = "rea.bench.corpus";

  private BenchFiles() {}

  static Path dir() {
    String d = System.getProperty(PROPERTY);
    if (d == null || d.isEmpty()) {
      d = Paths.get(System.getProperty("java.io.tmpdir"), "rea-bench-corpus").toString();
    }
    return Paths.get(d).toAbsolutePath();
  }

  /** @return the absolute path of the named corpus file, generated when needed */
  static Path file(String name) {
    try {
      return BenchCorpus.ensure(BenchCorpus.Item.parse(name), dir()).path().toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot generate " + name + " in " + dir(), e);
    }
  }
}
