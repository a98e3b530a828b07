package dev.rea.bench;

import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.internal.io.PipelinedDigest;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
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
 * The safetensors reader alone over the 20,439-tensor file: open, parse and validate the 2.5 MB
 * JSON header with every strict check on (UTF-8 and control bytes, strict JSON, duplicate keys,
 * dtype, shape and storage checks, contiguous {@code data_offsets}, rows in code-point order),
 * and the header SHA-256 on the digest thread, as {@code ModelInspector} runs them. It leaves out
 * what the Evidence adds after the read: the record, its type table and totals, and its {@code
 * evidence_id} (RFC 8785 canonical form and SHA-256), which {@link SafetensorsInspectBenchmark}
 * includes.
 *
 * <p>This is the work the reference figure measures: the Rust crate (safetensors 0.8)
 * parses and validates the header and builds its tensor table, and signs or hashes nothing. The
 * benchmark method returns what it read, so the work is not eliminated and a test can check it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SafetensorsReadBenchmark {
  /** Corpus file name (see {@code BenchCorpus.Item}). */
  @Param({"sharded-20k.safetensors"})
  public String file;

  private Path path;
  private SafetensorsReader reader;
  private Limits limits;

  /** Generates the corpus file when missing. */
  @Setup
  public void setup() {
    path = BenchFiles.file(file);
    reader = new SafetensorsReader();
    limits = Limits.defaults();
  }

  /**
   * What one read established.
   *
   * @param header the validated header (its tensor rows in code-point order)
   * @param headerSha256 lowercase hex SHA-256 of the header's bytes: the 8-byte length prefix and
   *     the JSON
   */
  public record Result(ParsedHeader header, String headerSha256) {}

  /**
   * @return the validated header and its SHA-256
   * @throws ReaException when the file is not a valid safetensors header
   * @throws IOException when the file cannot be opened or read
   */
  @Benchmark
  public Result readHeader() throws ReaException, IOException {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        PipelinedDigest sha = new PipelinedDigest(EvidenceIds.sha256(), true)) {
      HeaderInput in = new HeaderInput(channel, channel.size(), sha, Cancellation.none());
      ParsedHeader header = reader.read(in, ReadContext.of(limits));
      if (in.position() != header.headerLength()) {
        throw new IllegalStateException(
            "read " + in.position() + " bytes of a " + header.headerLength() + "-byte header");
      }
      return new Result(header, HexFormat.of().formatHex(in.consumedDigest().digest()));
    }
  }
}
