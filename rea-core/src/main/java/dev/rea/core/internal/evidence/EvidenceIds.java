package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;
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

  /**
   * The canonical form of the record (without identity), in parts when it is worth it: its
   * tensor rows apart from the rest ({@link #canonicalForm(EvidenceRecord, int, int, int,
   * String)}); and when another array (metadata, types, limitations, warnings) is large too, every
   * array of its compact text ({@link #canonicalizeText}).
   */
  static byte[] canonicalForm(EvidenceRecord record) {
    if (record.metadata().size() >= SPLIT_TENSORS
        || record.types().size() >= SPLIT_TENSORS
        || record.limitations().size() >= SPLIT_TENSORS
        || record.warnings().size() >= SPLIT_TENSORS) {
      return canonicalizeText(EvidenceJson.recordBytes(record, false), hasSubnormal(record));
    }
    return canonicalForm(record, SPLIT_TENSORS, PART_ROWS, threads(), placeholder());
  }

  /**
   * The arrays that are members of the object a compact JSON text holds (no whitespace, as
   * {@link EvidenceJson} writes it), found by one pass over its bytes that follows strings and
   * nesting.
   */
  static List<ArraySpan> topLevelArrays(byte[] json) {
    List<ArraySpan> out = new ArrayList<>();
    int depth = 0;
    int open = -1;
    int[] ends = new int[16];
    int n = 0;
    for (int i = 0; i < json.length; i++) {
      byte b = json[i];
      if (b == '"') {
        // Skip the string: a quote after a backslash is part of it.
        for (i++; i < json.length && json[i] != '"'; i++) {
          if (json[i] == '\\') {
            i++;
          }
        }
      } else if (b == '[' || b == '{') {
        if (depth == 1 && b == '[') {
          open = i;
          n = 0;
        }
        depth++;
      } else if (b == ']' || b == '}') {
        depth--;
        if (depth == 1 && b == ']' && open >= 0) {
          if (i > open + 1) {
            ends = n == ends.length ? java.util.Arrays.copyOf(ends, n * 2) : ends;
            ends[n++] = i;
          }
          out.add(new ArraySpan(open, java.util.Arrays.copyOf(ends, n), i + 1));
          open = -1;
        }
      } else if (b == ',' && depth == 2 && open >= 0) {
        ends = n == ends.length ? java.util.Arrays.copyOf(ends, n * 2) : ends;
        ends[n++] = i;
      }
    }
    return out;
  }

  private static int threads() {
    return Math.max(1, Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors()));
  }

  /** A string of ASCII letters, digits and '-' that no record is expected to hold. */
  private static String placeholder() {
    return "rea-part-"
        + Long.toHexString(ThreadLocalRandom.current().nextLong())
        + Long.toHexString(ThreadLocalRandom.current().nextLong());
  }

  /**
   * The record's canonical form, every part of it written by the reference canonicalizer.
   *
   * <p>RFC 8785 orders an object's members by name alone and writes an array as its canonical
   * elements joined by commas. So a record with at least {@code splitAt} tensor rows is
   * canonicalized with the string {@code placeholder} in place of its {@code tensors} array, its
   * rows are canonicalized as arrays of {@code partRows} rows (on up to {@code threads} threads,
   * this one included, each taking the next part), and the parts' elements, in order, replace
   * the placeholder ({@link #joinCanonical}). The result is byte for byte the library's canonical
   * form of the whole record ({@code EvidenceIdsTest}); only one part's tree per thread is alive
   * at a time.
   *
   * @param placeholder a string of ASCII letters, digits and {@code '-'} (written unescaped)
   * @throws OutOfMemoryError (or any error or runtime exception) from any of the threads, as is
   */
  static byte[] canonicalForm(
      EvidenceRecord record, int splitAt, int partRows, int threads, String placeholder) {
    List<TensorRow> rows = record.tensors();
    boolean subnormals = hasSubnormal(record);
    if (rows.size() < Math.max(2, splitAt)) {
      return canonicalize(EvidenceJson.recordBytes(record, false), subnormals);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      EvidenceJson.writeRecord(g, record, false, placeholder);
    }
    int parts = (rows.size() + partRows - 1) / partRows;
    Parted tensors =
        new Parted(
            placeholder,
            parts,
            i -> rowsBytes(rows.subList(i * partRows, Math.min(rows.size(), (i + 1) * partRows))));
    return joinCanonical(
        out.toByteArray(),
        List.of(tensors),
        threads,
        () -> EvidenceJson.recordBytes(record, false),
        subnormals);
  }

  /**
   * Where one array stands in a compact JSON text (no whitespace): {@code open} is the offset of
   * its {@code '['}, {@code ends[i]} the offset just after its element {@code i} (so the byte at
   * {@code ends[i]} is the {@code ','} before element {@code i + 1}, or the closing bracket), and
   * {@code close} the offset just after its {@code ']'}. Offsets are in bytes.
   */
  record ArraySpan(int open, int[] ends, int close) {}

  /**
   * The RFC 8785 canonical form of a compact JSON object text (no whitespace, as {@link
   * EvidenceJson} writes it and {@code EvidenceImport} copies it), as {@link #canonicalize}, with
   * its array-valued members ({@link #topLevelArrays}) canonicalized in parts of {@link
   * #PART_ROWS} elements when they hold {@link #SPLIT_TENSORS} elements or more in all: the
   * canonicalizer's tree never holds more than a part per thread, where a whole 60 MB text took
   * more than a gigabyte. With {@code subnormals}, numbers whose value is a subnormal double are
   * written as ECMAScript writes them ({@link #canonicalize(byte[], boolean)}); pass {@link
   * #hasSubnormal} of the record the text holds. Byte for byte the library's form of the whole
   * text ({@code EvidenceIdsTest}).
   *
   * @throws java.io.UncheckedIOException (or any runtime exception) when the text is not JSON the
   *     canonicalizer takes
   */
  public static byte[] canonicalizeText(byte[] json, boolean subnormals) {
    return canonicalizeText(
        json, topLevelArrays(json), SPLIT_TENSORS, PART_ROWS, threads(), placeholder(), subnormals);
  }

  /**
   * As {@link #canonicalizeText(byte[], boolean)}, with the spans of the arrays given (top-level
   * members of the text's object, in text order); spans that do not fit the text as described
   * ({@link #spansFit}) make it canonicalized whole.
   */
  static byte[] canonicalizeText(
      byte[] json, List<ArraySpan> spans, int splitAt, int partRows, int threads, String base) {
    return canonicalizeText(json, spans, splitAt, partRows, threads, base, false);
  }

  static byte[] canonicalizeText(
      byte[] json,
      List<ArraySpan> spans,
      int splitAt,
      int partRows,
      int threads,
      String base,
      boolean subnormals) {
    if (!spansFit(json, spans)) {
      return canonicalize(json, subnormals);
    }
    long elements = 0;
    for (ArraySpan s : spans) {
      elements += s.ends().length;
    }
    if (elements < Math.max(2, splitAt)) {
      return canonicalize(json, subnormals);
    }
    ByteArrayOutputStream skeleton = new ByteArrayOutputStream(4096);
    List<Parted> arrays = new ArrayList<>();
    int pos = 0;
    for (ArraySpan s : spans) {
      int n = s.ends().length;
      if (n == 0) {
        continue;
      }
      String placeholder = base + "-" + arrays.size();
      skeleton.write(json, pos, s.open() - pos);
      skeleton.writeBytes(('"' + placeholder + '"').getBytes(StandardCharsets.US_ASCII));
      pos = s.close();
      arrays.add(
          new Parted(
              placeholder,
              (n + partRows - 1) / partRows,
              i -> {
                int first = i * partRows;
                int last = Math.min(n, first + partRows) - 1;
                int from = first == 0 ? s.open() + 1 : s.ends()[first - 1] + 1;
                int to = s.ends()[last];
                byte[] part = new byte[to - from + 2];
                part[0] = '[';
                System.arraycopy(json, from, part, 1, to - from);
                part[part.length - 1] = ']';
                return part;
              }));
    }
    skeleton.write(json, pos, json.length - pos);
    return joinCanonical(skeleton.toByteArray(), arrays, threads, () -> json, subnormals);
  }

  /**
   * @return whether every span is an array of the compact text, each after the one before it (the
   *     spans {@link #canonicalizeText} may work in parts; otherwise it canonicalizes the text
   *     whole)
   */
  static boolean spansFit(byte[] json, List<ArraySpan> spans) {
    int after = 0;
    for (ArraySpan s : spans) {
      if (!fits(json, s, after)) {
        return false;
      }
      after = s.close();
    }
    return true;
  }

  /** @return whether {@code s} is an array of the compact text starting at or after {@code from} */
  private static boolean fits(byte[] json, ArraySpan s, int from) {
    int[] ends = s.ends();
    if (s.open() < from
        || s.close() > json.length
        || s.close() - s.open() < 2
        || json[s.open()] != '['
        || json[s.close() - 1] != ']') {
      return false;
    }
    int prev = s.open() + 1;
    for (int i = 0; i < ends.length; i++) {
      int end = ends[i];
      int next = i + 1 < ends.length ? ',' : ']';
      if (end <= prev || end >= s.close() || json[end] != next) {
        return false;
      }
      prev = end + 1;
    }
    return ends.length > 0 || s.close() - s.open() == 2;
  }

  /**
   * One array canonicalized in parts: the placeholder string standing for it in the skeleton, and
   * the JSON text of each part (an array of some of its elements, in order).
   */
  private record Parted(String placeholder, int parts, IntFunction<byte[]> partJson) {}

  /**
   * Canonicalizes the skeleton and every part of every array (on up to {@code threads} threads,
   * this one included, each taking the next part), then puts each array's canonical elements,
   * joined by commas and in brackets, where its quoted placeholder stands in the canonical
   * skeleton. RFC 8785 orders an object's members by name alone and writes an array as its
   * canonical elements joined by commas, so the result is the canonical form of the whole
   * document. Unless each quoted placeholder occurs exactly once in the canonical skeleton (a
   * value could hold it), the whole document ({@code whole}) is canonicalized instead.
   *
   * @throws OutOfMemoryError (or any error or runtime exception) from any of the threads, as is
   */
  private static byte[] joinCanonical(
      byte[] skeletonJson,
      List<Parted> arrays,
      int threads,
      Supplier<byte[]> whole,
      boolean subnormals) {
    int[] firstTask = new int[arrays.size() + 1];
    for (int a = 0; a < arrays.size(); a++) {
      firstTask[a + 1] = firstTask[a] + arrays.get(a).parts();
    }
    int tasks = firstTask[arrays.size()];
    byte[][] done = new byte[tasks][];
    AtomicInteger next = new AtomicInteger();
    Runnable work =
        () -> {
          for (int t = next.getAndIncrement(); t < tasks; t = next.getAndIncrement()) {
            int a = 0;
            while (firstTask[a + 1] <= t) {
              a++;
            }
            try {
              done[t] =
                  canonicalize(arrays.get(a).partJson().apply(t - firstTask[a]), subnormals);
            } catch (RuntimeException | Error e) {
              next.set(tasks); // the others stop taking parts
              throw e;
            }
          }
        };
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    for (int t = 1; t < Math.min(threads, tasks); t++) {
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
      skeleton = canonicalize(skeletonJson, subnormals);
      work.run();
    } catch (RuntimeException | Error e) {
      next.set(tasks);
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
    Marks marks = locateQuoted(skeleton, arrays.stream().map(Parted::placeholder).toList());
    if (marks == null) {
      return canonicalize(whole.get(), subnormals);
    }
    int[] at = marks.at();
    long length = skeleton.length;
    for (int a = 0; a < arrays.size(); a++) {
      length -= arrays.get(a).placeholder().length() + 2;
      length += 2 + (arrays.get(a).parts() - 1);
      for (int t = firstTask[a]; t < firstTask[a + 1]; t++) {
        length += done[t].length - 2;
      }
    }
    if (length > Integer.MAX_VALUE - 8) {
      throw new OutOfMemoryError("canonical form of " + length + " bytes");
    }
    // [<part 0's elements>,<part 1's elements>,...] for each; each part is "[...]", never empty.
    byte[] joined = new byte[(int) length];
    int from = 0;
    int p = 0;
    for (int a : marks.order()) {
      System.arraycopy(skeleton, from, joined, p, at[a] - from);
      p += at[a] - from;
      joined[p++] = '[';
      for (int t = firstTask[a]; t < firstTask[a + 1]; t++) {
        if (t > firstTask[a]) {
          joined[p++] = ',';
        }
        System.arraycopy(done[t], 1, joined, p, done[t].length - 2);
        p += done[t].length - 2;
      }
      joined[p++] = ']';
      from = at[a] + arrays.get(a).placeholder().length() + 2;
    }
    System.arraycopy(skeleton, from, joined, p, skeleton.length - from);
    return joined;
  }

  /**
   * Where quoted placeholders stand in a canonical text.
   *
   * @param at {@code at[k]}: the offset of the opening quote of placeholder {@code k}
   * @param order the placeholders' indices in text order
   */
  private record Marks(int[] at, int[] order) {}

  /**
   * Finds the quoted placeholders in one pass over the text, whatever their number (a record with
   * tens of thousands of subnormal numbers has as many; looking for each in turn took minutes). A
   * placeholder is made of ASCII letters, digits and {@code '-'}, so a quoted one is a quote, a
   * run of those bytes and a quote: each quote of the text starts at most one candidate, looked
   * up by name.
   *
   * @return where each of {@code placeholders}, quoted, stands in {@code text}, or null unless
   *     each occurs there exactly once (a value of the text could hold one)
   */
  private static @Nullable Marks locateQuoted(byte[] text, List<String> placeholders) {
    int n = placeholders.size();
    java.util.Map<String, Integer> index = new java.util.HashMap<>(n * 2);
    int longest = 0;
    for (int k = 0; k < n; k++) {
      index.put(placeholders.get(k), k);
      longest = Math.max(longest, placeholders.get(k).length());
    }
    int[] at = new int[n];
    java.util.Arrays.fill(at, -1);
    int found = 0;
    for (int i = 0; i < text.length; i++) {
      if (text[i] != '"') {
        continue;
      }
      int j = i + 1;
      while (j < text.length && placeholderByte(text[j])) {
        j++;
      }
      if (j < text.length && text[j] == '"' && j > i + 1 && j - i - 1 <= longest) {
        Integer k = index.get(new String(text, i + 1, j - i - 1, StandardCharsets.US_ASCII));
        if (k != null) {
          if (at[k] >= 0) {
            return null;
          }
          at[k] = i;
          found++;
        }
      }
      // The closing quote at j may open the next candidate; no quote lies between i and j.
      i = j - 1;
    }
    if (found != n) {
      return null;
    }
    int[] order =
        java.util.stream.IntStream.range(0, n)
            .boxed()
            .sorted((x, y) -> Integer.compare(at[x], at[y]))
            .mapToInt(Integer::intValue)
            .toArray();
    return new Marks(at, order);
  }

  /** @return whether {@code b} may be part of a placeholder (ASCII letter, digit or '-') */
  private static boolean placeholderByte(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '-';
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

  /**
   * The canonical form and evidence ID {@link #withId} computed last, for the record it returned:
   * signing that record (the next step of every inspection that is delivered whole) needs the
   * same bytes and ID, and canonicalizing and hashing a large record twice costs as much as the
   * inspection. Keyed by identity (a record is immutable; a copy is canonicalized afresh); the
   * record is held weakly and the bytes softly, so the entry never keeps either alive.
   */
  private record Canonical(WeakReference<EvidenceRecord> of, SoftReference<byte[]> bytes, String id) {}

  private static volatile @Nullable Canonical lastCanonical;

  /**
   * RFC 8785 canonical UTF-8 bytes of JSON text; with {@code subnormals}, every number whose value
   * is a subnormal double (non-zero, below 2^-1022 in magnitude) is written as ECMAScript's
   * Number.prototype.toString writes it, as RFC 8785 section 3.2.2.3 requires. The reference
   * library (1.1) writes some of them wrongly (1e-320 as {@code 0.0000...0001e-178}, found by a
   * hostile-input trial), so such numbers stand in the library's input as placeholder strings,
   * which its output then has in their place (a number's place in the canonical form does not
   * depend on its value). Without subnormals, or with none in the text, this is {@link
   * #canonicalize(byte[])}.
   */
  public static byte[] canonicalize(byte[] jsonUtf8, boolean subnormals) {
    if (!subnormals) {
      return canonicalize(jsonUtf8);
    }
    List<long[]> at = new ArrayList<>(); // {start, end, bits}
    try (tools.jackson.core.JsonParser p =
        NUMBERS.createParser(tools.jackson.core.ObjectReadContext.empty(), jsonUtf8)) {
      for (tools.jackson.core.JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == tools.jackson.core.JsonToken.VALUE_NUMBER_FLOAT
            || t == tools.jackson.core.JsonToken.VALUE_NUMBER_INT) {
          double d = p.getDoubleValue();
          if (isSubnormal(d)) {
            long start = p.currentTokenLocation().getByteOffset();
            long end = start + p.getString().length();
            at.add(new long[] {start, end, Double.doubleToRawLongBits(d)});
          }
        }
      }
    }
    if (at.isEmpty()) {
      return canonicalize(jsonUtf8);
    }
    String base = placeholder();
    List<String> placeholders = new ArrayList<>(at.size());
    ByteArrayOutputStream in = new ByteArrayOutputStream(jsonUtf8.length + 64 * at.size());
    int pos = 0;
    for (int k = 0; k < at.size(); k++) {
      placeholders.add(base + "-" + k);
      in.write(jsonUtf8, pos, (int) at.get(k)[0] - pos);
      in.writeBytes(('"' + placeholders.get(k) + '"').getBytes(StandardCharsets.US_ASCII));
      pos = (int) at.get(k)[1];
    }
    in.write(jsonUtf8, pos, jsonUtf8.length - pos);
    byte[] out = canonicalize(in.toByteArray());
    // Canonicalization moves members, so each placeholder is looked for anew.
    Marks marks = locateQuoted(out, placeholders);
    if (marks == null) {
      throw new IllegalStateException("a placeholder was not found once in the canonical form");
    }
    ByteArrayOutputStream fixed = new ByteArrayOutputStream(out.length);
    int from = 0;
    for (int k : marks.order()) {
      fixed.write(out, from, marks.at()[k] - from);
      fixed.writeBytes(
          ecmaScriptNumber(Double.longBitsToDouble(at.get(k)[2]))
              .getBytes(StandardCharsets.US_ASCII));
      from = marks.at()[k] + placeholders.get(k).length() + 2;
    }
    fixed.write(out, from, out.length - from);
    return fixed.toByteArray();
  }

  /** A plain streaming parser for finding number tokens (the text was checked before). */
  private static final tools.jackson.core.json.JsonFactory NUMBERS =
      tools.jackson.core.json.JsonFactory.builder()
          .streamReadConstraints(
              tools.jackson.core.StreamReadConstraints.builder()
                  .maxDocumentLength(-1)
                  .maxStringLength(Integer.MAX_VALUE)
                  .maxNameLength(Integer.MAX_VALUE)
                  .maxNumberLength(Integer.MAX_VALUE)
                  .maxNestingDepth(Integer.MAX_VALUE)
                  .maxTokenCount(-1)
                  .build())
          .build();

  /** @return whether {@code d} is a subnormal double (finite, non-zero, below 2^-1022) */
  static boolean isSubnormal(double d) {
    return d != 0 && Math.abs(d) < Double.MIN_NORMAL;
  }

  /**
   * @return whether a metadata value of the record (a scalar, or an element of an array's
   *     preview at any depth) is a subnormal double, the numbers {@link #canonicalize(byte[],
   *     boolean)} must write itself
   */
  public static boolean hasSubnormal(EvidenceRecord record) {
    for (MetadataRow m : record.metadata()) {
      if (m.value().anyNested(v -> v instanceof MetadataValue.FloatValue f && isSubnormal(f.value()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A subnormal double as ECMAScript's Number.prototype.toString writes it (ECMA-262, Number::
   * toString; RFC 8785 section 3.2.2.3): the fewest significant digits that read back as the
   * same double (the closest such, when several), in exponent form, since every subnormal is
   * below 10^-21: {@code d[.ddd]e-NNN}.
   *
   * @throws IllegalArgumentException unless {@code d} is subnormal
   */
  static String ecmaScriptNumber(double d) {
    if (!isSubnormal(d)) {
      throw new IllegalArgumentException("not a subnormal double: " + d);
    }
    java.math.BigDecimal exact = new java.math.BigDecimal(Math.abs(d));
    for (int digits = 1; ; digits++) {
      java.math.BigDecimal r =
          exact.round(new java.math.MathContext(digits, java.math.RoundingMode.HALF_EVEN));
      if (r.doubleValue() == Math.abs(d)) {
        r = r.stripTrailingZeros();
        String s = r.unscaledValue().toString();
        // value = s x 10^(-scale); with n as ECMA-262 defines it, the exponent shown is n - 1.
        int exponent = s.length() - 1 - r.scale();
        String mantissa = s.length() == 1 ? s : s.charAt(0) + "." + s.substring(1);
        return (d < 0 ? "-" : "") + mantissa + "e" + exponent;
      }
    }
  }

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
