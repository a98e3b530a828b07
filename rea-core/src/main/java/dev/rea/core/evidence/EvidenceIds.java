package dev.rea.core.evidence;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import org.erdtman.jcs.JsonCanonicalizer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Evidence identity (CONTRACT section 5): the RFC 8785 (JSON Canonicalization Scheme) form of a
 * record without {@code evidence_id} and {@code authentication}, and {@code evidence_id =
 * "sha256:" + hex(SHA-256(canonical))}. Canonicalisation uses the RFC's reference Java
 * implementation ({@code io.github.erdtman:java-json-canonicalization}).
 */
public final class EvidenceIds {
  /** Prefix of every evidence ID. */
  public static final String PREFIX = "sha256:";

  private EvidenceIds() {}

  /**
   * The RFC 8785 canonical UTF-8 bytes of the record's identity-free form: the record's JSON text
   * ({@link EvidenceJson#recordBytes} without {@code evidence_id} and {@code authentication})
   * canonicalized by the RFC's reference implementation.
   */
  public static byte[] canonicalBytes(EvidenceRecord record) {
    return identity(record).canonical();
  }

  /**
   * A record's canonical bytes and the evidence ID computed from them.
   *
   * @param canonical the RFC 8785 canonical UTF-8 bytes ({@link #canonicalBytes}); the caller's
   *     own copy
   * @param evidenceId {@code "sha256:" + hex(SHA-256(canonical))}
   */
  public record Identity(byte[] canonical, String evidenceId) {}

  /**
   * The canonical bytes of the record and their evidence ID. For the record {@link #withId}
   * returned last, both are the ones it computed (no second canonicalization or SHA-256 of a
   * canonical form that is megabytes long for a large header); for any other record they are
   * computed afresh. The record's own {@code evidence_id} field is never trusted.
   */
  public static Identity identity(EvidenceRecord record) {
    Canonical last = lastCanonical;
    if (last != null && last.of.get() == record) {
      byte[] bytes = last.bytes.get();
      if (bytes != null) {
        return new Identity(bytes.clone(), last.id);
      }
    }
    byte[] canonical = canonicalForm(record);
    return new Identity(canonical, idOfCanonical(canonical));
  }

  /**
   * Records with at least this many tensor rows are canonicalized in parts (below: in one piece).
   * A 20,439-tensor record's canonical form is about 5 MB.
   */
  static final int SPLIT_TENSORS = 2_000;

  /**
   * Tensor rows per part: the canonicalizer's tree of one part stays small (a few MB), where the
   * tree of a whole 100,000-row record took hundreds of MB.
   */
  static final int PART_ROWS = 1_024;

  /** Threads that canonicalize parts at once, the calling one included. */
  static final int MAX_THREADS = 4;

  /** The canonical form of the record (without identity), in parts when it is worth it. */
  static byte[] canonicalForm(EvidenceRecord record) {
    String placeholder =
        "rea-tensors-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong())
            + Long.toHexString(ThreadLocalRandom.current().nextLong());
    int threads = Math.max(1, Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors()));
    return canonicalForm(record, SPLIT_TENSORS, PART_ROWS, threads, placeholder);
  }

  /**
   * The record's canonical form, every part of it written by the reference canonicalizer.
   *
   * <p>RFC 8785 orders an object's members by name alone and writes an array as its canonical
   * elements joined by commas. So a record with at least {@code splitAt} tensor rows is
   * canonicalized with the string {@code placeholder} in place of its {@code tensors} array, its
   * rows are canonicalized as arrays of {@code partRows} rows (on up to {@code threads} threads,
   * this one included, each taking the next part), and the parts' elements, in order, replace
   * {@code "tensors":"<placeholder>"}. Unless that text occurs exactly once in the record's
   * canonical form (a value of the record could contain it), the record is canonicalized whole
   * instead. The result is byte for byte the library's canonical form of the whole record
   * ({@code EvidenceIdsTest}); only one part's tree per thread is alive at a time.
   *
   * @param placeholder a string of ASCII letters, digits and {@code '-'} (written unescaped)
   * @throws OutOfMemoryError (or any error or runtime exception) from any of the threads, as is
   */
  static byte[] canonicalForm(
      EvidenceRecord record, int splitAt, int partRows, int threads, String placeholder) {
    List<TensorRow> rows = record.tensors();
    if (rows.size() < Math.max(2, splitAt)) {
      return canonicalize(EvidenceJson.recordBytes(record, false));
    }
    int parts = (rows.size() + partRows - 1) / partRows;
    byte[][] done = new byte[parts][];
    AtomicInteger next = new AtomicInteger();
    Runnable work =
        () -> {
          for (int i = next.getAndIncrement(); i < parts; i = next.getAndIncrement()) {
            try {
              done[i] =
                  canonicalize(
                      rowsBytes(rows.subList(i * partRows, Math.min(rows.size(), (i + 1) * partRows))));
            } catch (RuntimeException | Error e) {
              next.set(parts); // the others stop taking parts
              throw e;
            }
          }
        };
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    for (int t = 1; t < Math.min(threads, parts); t++) {
      CompletableFuture<Void> f = new CompletableFuture<>();
      Thread worker =
          new Thread(
              () -> {
                try {
                  work.run();
                  f.complete(null);
                } catch (Throwable e) {
                  f.completeExceptionally(e);
                }
              },
              "rea-canonical-" + t);
      worker.setDaemon(true);
      worker.start();
      workers.add(f);
    }
    byte[] skeleton;
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
      try (JsonGenerator g = EvidenceJson.generator(out)) {
        EvidenceJson.writeRecord(g, record, false, placeholder);
      }
      skeleton = canonicalize(out.toByteArray());
      work.run();
    } catch (RuntimeException | Error e) {
      next.set(parts);
      throw e;
    } finally {
      // Whatever happened here, every worker is awaited: no thread outlives the call.
      for (CompletableFuture<Void> f : workers) {
        awaitQuietly(f);
      }
    }
    for (CompletableFuture<Void> f : workers) {
      rethrowFailure(f);
    }
    byte[] marker = ("\"tensors\":\"" + placeholder + "\"").getBytes(StandardCharsets.US_ASCII);
    int at = indexOf(skeleton, marker, 0);
    if (at < 0 || indexOf(skeleton, marker, at + 1) >= 0) {
      return canonicalize(EvidenceJson.recordBytes(record, false));
    }
    // "tensors":[<part 0's elements>,<part 1's elements>,...]; each part is "[...]", never empty.
    int head = at + marker.length - placeholder.length() - 2;
    int tail = skeleton.length - at - marker.length;
    long length = head + 2L + (parts - 1) + tail;
    for (byte[] part : done) {
      length += part.length - 2;
    }
    if (length > Integer.MAX_VALUE - 8) {
      throw new OutOfMemoryError("canonical form of " + length + " bytes");
    }
    byte[] joined = new byte[(int) length];
    System.arraycopy(skeleton, 0, joined, 0, head);
    int p = head;
    joined[p++] = '[';
    for (int i = 0; i < parts; i++) {
      if (i > 0) {
        joined[p++] = ',';
      }
      System.arraycopy(done[i], 1, joined, p, done[i].length - 2);
      p += done[i].length - 2;
    }
    joined[p++] = ']';
    System.arraycopy(skeleton, at + marker.length, joined, p, tail);
    return joined;
  }

  private static byte[] rowsBytes(List<TensorRow> rows) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      EvidenceJson.writeTensorRows(g, rows);
    }
    return out.toByteArray();
  }

  private static void awaitQuietly(CompletableFuture<Void> f) {
    try {
      f.join();
    } catch (RuntimeException ignored) {
      // Reported by rethrowFailure.
    }
  }

  /** A worker's failure rethrown as it was (an error stays an error). */
  private static void rethrowFailure(CompletableFuture<Void> f) {
    try {
      f.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Error err) {
        throw err;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw e;
    }
  }

  private static int indexOf(byte[] in, byte[] what, int from) {
    outer:
    for (int i = from; i <= in.length - what.length; i++) {
      for (int k = 0; k < what.length; k++) {
        if (in[i + k] != what[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /**
   * The canonical form and evidence ID {@link #withId} computed last, for the record it returned:
   * signing that record (the next step of every inspection that is delivered whole) needs the
   * same bytes and ID, and canonicalizing and hashing a large record twice costs as much as the
   * inspection. Keyed by identity (a record is immutable; a copy is canonicalized afresh); the
   * record is held weakly and the bytes softly, so the entry never keeps either alive.
   */
  private record Canonical(WeakReference<EvidenceRecord> of, SoftReference<byte[]> bytes, String id) {}

  private static volatile @Nullable Canonical lastCanonical;

  /** @return RFC 8785 canonical UTF-8 bytes of arbitrary JSON text */
  public static byte[] canonicalize(byte[] jsonUtf8) {
    try {
      return new JsonCanonicalizer(jsonUtf8).getEncodedUTF8();
    } catch (IOException e) {
      throw new UncheckedIOException("JSON could not be canonicalized", e);
    }
  }

  /** @return {@code "sha256:<hex>"} over the canonical bytes */
  public static String idOfCanonical(byte[] canonical) {
    return PREFIX + sha256Hex(canonical);
  }

  /** @return the evidence ID of the record (its own {@code evidence_id} field is ignored) */
  public static String compute(EvidenceRecord record) {
    return identity(record).evidenceId();
  }

  /** @return the record with its evidence ID filled in */
  public static EvidenceRecord withId(EvidenceRecord record) {
    Identity identity = identity(record);
    EvidenceRecord withId = record.withEvidenceId(identity.evidenceId());
    lastCanonical =
        new Canonical(
            new WeakReference<>(withId), new SoftReference<>(identity.canonical()), identity.evidenceId());
    return withId;
  }

  /** @return lowercase hex SHA-256 of the bytes */
  public static String sha256Hex(byte[] bytes) {
    return HexFormat.of().formatHex(sha256().digest(bytes));
  }

  /** @return a new SHA-256 digest (always present in the JDK) */
  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  /** Used in tests: the canonical text. */
  static String canonicalText(EvidenceRecord record) {
    return new String(canonicalBytes(record), StandardCharsets.UTF_8);
  }
}
