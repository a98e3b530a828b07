package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.format.safetensors.SafetensorsCorpus;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Assumptions;

/**
 * Helpers shared by the GGUF tests (and reusable by other modules through the core test-jar): run
 * the reader over bytes, inspect files through {@link ModelInspector}, locate {@code
 * ../shared/corpus} and the committed corpus subset.
 */
public final class GgufTesting {
  private GgufTesting() {}

  /** The result of a direct read: the header and the bytes the reader consumed. */
  public record Read(ParsedHeader header, long consumed, String consumedSha256) {}

  /**
   * Reads {@code bytes} with {@link GgufReader} over an in-memory channel, with the given limits,
   * and checks that exactly {@code header_length} bytes were consumed.
   */
  public static Read readWith(byte[] bytes, Limits limits) throws ReaException {
    MessageDigest sha = EvidenceIds.sha256();
    HeaderInput in =
        new HeaderInput(
            Channels.newChannel(new ByteArrayInputStream(bytes)),
            bytes.length,
            sha,
            Cancellation.none());
    ParsedHeader h = new GgufReader().read(in, ReadContext.of(limits));
    assertThat(in.position()).as("bytes consumed = header_length").isEqualTo(h.headerLength());
    String digest = HexFormat.of().formatHex(in.consumedDigest().digest());
    return new Read(h, in.position(), digest);
  }

  /** Reads with the specification's limits and returns the header. */
  public static ParsedHeader read(byte[] bytes) throws ReaException {
    return readWith(bytes, Limits.defaults()).header();
  }

  /** Reads and returns the rejection, failing the test if the file is accepted. */
  public static ReaException reject(byte[] bytes) {
    return rejectWith(bytes, Limits.defaults());
  }

  /** As {@link #reject(byte[])} with custom limits. */
  public static ReaException rejectWith(byte[] bytes, Limits limits) {
    try {
      ParsedHeader h = readWith(bytes, limits).header();
      throw new AssertionError("expected a rejection but the file was accepted: " + h.facts());
    } catch (ReaException e) {
      return e;
    }
  }

  /** Inspects {@code file} (header hash) through the standard inspector. */
  public static EvidenceRecord inspect(Path file) throws ReaException {
    return ModelInspector.standard().inspect(file.toAbsolutePath(), HashMode.HEADER);
  }

  /** Writes {@code bytes} to a file in {@code dir} and inspects it. */
  public static EvidenceRecord inspectBytes(Path dir, String name, byte[] bytes)
      throws ReaException {
    return inspect(write(dir, name, bytes));
  }

  /** Writes bytes to {@code dir/name}. */
  public static Path write(Path dir, String name, byte[] bytes) {
    try {
      return Files.write(dir.resolve(name), bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** @return the repository root (the directory holding {@code mvnw}) */
  public static Path repositoryRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isRegularFile(p.resolve("mvnw"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }
    return p;
  }

  /**
   * @return {@code ../shared/corpus} relative to the repository root, when it exists. The system
   *     property {@code rea.corpus} or the environment variable {@code REA_CORPUS} can point
   *     elsewhere (e.g. from a git worktree, whose root has no {@code ../shared} beside it).
   */
  public static Optional<Path> corpus() {
    String override = System.getProperty("rea.corpus", System.getenv("REA_CORPUS"));
    Path c =
        override != null && !override.isEmpty()
            ? Path.of(override).toAbsolutePath().normalize()
            : repositoryRoot().resolve("../shared/corpus").normalize();
    return Files.isDirectory(c) ? Optional.of(c) : Optional.empty();
  }

  /**
   * @return the corpus folder {@code sub}, or skips the calling test with a printed line when
   *     {@code ../shared/corpus} is absent
   */
  public static Path corpusOrSkip(String sub) {
    Optional<Path> c = corpus();
    if (c.isEmpty()) {
      System.out.println(SafetensorsCorpus.skipped());
    }
    Assumptions.assumeTrue(c.isPresent(), SafetensorsCorpus.skipped());
    return c.get().resolve(sub);
  }

  /**
   * The bytes of a committed test resource under {@code /gguf/}; {@code .gz} resources are
   * decompressed.
   */
  public static byte[] resource(String name) {
    try (InputStream raw = GgufTesting.class.getResourceAsStream("/gguf/" + name)) {
      if (raw == null) {
        throw new IllegalArgumentException("no test resource /gguf/" + name);
      }
      InputStream s = name.endsWith(".gz") ? new GZIPInputStream(raw) : raw;
      return s.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Copies a committed resource into {@code dir} (decompressed, without {@code .gz}). */
  public static Path resourceFile(Path dir, String name) {
    String base = name.substring(name.lastIndexOf('/') + 1);
    String plain = base.endsWith(".gz") ? base.substring(0, base.length() - 3) : base;
    return write(dir, plain, resource(name));
  }

  /** @return lowercase hex SHA-256 of bytes */
  public static String sha256(byte[] bytes) {
    return EvidenceIds.sha256Hex(bytes);
  }

  /** @return a copy of {@code bytes} with {@code b} written at {@code at} */
  public static byte[] patch(byte[] bytes, long at, int... b) {
    byte[] c = Arrays.copyOf(bytes, bytes.length);
    for (int k = 0; k < b.length; k++) {
      c[(int) at + k] = (byte) b[k];
    }
    return c;
  }
}
