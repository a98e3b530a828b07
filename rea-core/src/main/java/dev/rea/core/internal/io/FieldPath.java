package dev.rea.core.internal.io;

import dev.rea.core.error.ReaException;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The path of the field a reader is at, as CONTRACT section 6 names it in {@code field}: {@code
 * metadata[3].value[7]}, {@code tensor[2].dims[1]}, {@code tensors["a.weight"].shape[1]}. A
 * reader sets the segments as it goes, with plain stores into arrays (no object is created and no
 * text is built on the way), and the path is formatted only when a failure names it ({@link
 * #get()}). One instance per read; not thread-safe.
 *
 * <p>Three kinds of segment, formatted as follows: a <em>name</em> as itself at the start and as
 * {@code .name} after another segment; an <em>index</em> as {@code [n]}, {@code n} an unsigned
 * decimal; a <em>key</em> (text from the file, e.g. a safetensors tensor name) as {@code ["..."]},
 * quoted by {@link #quote}.
 *
 * <p>It is a {@link Supplier} of its text so that the retained budget ({@link RetainedBudget})
 * can take it as the lazily formatted field of a refusal.
 */
public final class FieldPath implements Supplier<String> {
  private static final byte NAME = 0;
  private static final byte INDEX = 1;
  private static final byte KEY = 2;

  private byte[] kinds = new byte[8];
  private String[] texts = new String[8];
  private long[] indexes = new long[8];
  private int size;

  /** An empty path (formatted as the empty string until a segment is set). */
  public FieldPath() {}

  /** @return a path of the one name {@code name} */
  public static FieldPath of(String name) {
    return new FieldPath().name(name);
  }

  /** @return the number of segments, a mark for {@link #truncate} */
  public int size() {
    return size;
  }

  /**
   * Drops the segments from {@code mark} on (a size returned by {@link #size()} earlier).
   *
   * @return this
   * @throws IllegalArgumentException when {@code mark} is more than the size
   */
  public FieldPath truncate(int mark) {
    if (mark < 0 || mark > size) {
      throw new IllegalArgumentException("mark " + mark + " of a path of " + size + " segments");
    }
    size = mark;
    return this;
  }

  /** Drops every segment and sets the one name {@code name}; @return this */
  public FieldPath reset(String name) {
    size = 0;
    return name(name);
  }

  /** Appends a name segment; @return this */
  public FieldPath name(String name) {
    int i = next();
    kinds[i] = NAME;
    texts[i] = name;
    return this;
  }

  /** Appends an index segment ({@code index} unsigned); @return this */
  public FieldPath index(long index) {
    int i = next();
    kinds[i] = INDEX;
    indexes[i] = index;
    return this;
  }

  /** Appends a key segment: text from the file, quoted when formatted; @return this */
  public FieldPath key(String key) {
    int i = next();
    kinds[i] = KEY;
    texts[i] = key;
    return this;
  }

  /**
   * Sets the last segment, which must be an index, to {@code index}.
   *
   * @return this
   * @throws IllegalStateException when the last segment is not an index
   */
  public FieldPath lastIndex(long index) {
    if (size == 0 || kinds[size - 1] != INDEX) {
      throw new IllegalStateException("the path " + get() + " does not end with an index");
    }
    indexes[size - 1] = index;
    return this;
  }

  /**
   * @return the value of the last segment, which must be an index
   * @throws IllegalStateException when the last segment is not an index
   */
  public long lastIndex() {
    if (size == 0 || kinds[size - 1] != INDEX) {
      throw new IllegalStateException("the path " + get() + " does not end with an index");
    }
    return indexes[size - 1];
  }

  private int next() {
    if (size == kinds.length) {
      int n = size * 2;
      kinds = Arrays.copyOf(kinds, n);
      texts = Arrays.copyOf(texts, n);
      indexes = Arrays.copyOf(indexes, n);
    }
    return size++;
  }

  /** @return the path as text, e.g. {@code metadata[3].value[7]} */
  @Override
  public String get() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < size; i++) {
      switch (kinds[i]) {
        case NAME:
          if (i > 0) {
            sb.append('.');
          }
          sb.append(texts[i]);
          break;
        case INDEX:
          sb.append('[').append(Long.toUnsignedString(indexes[i])).append(']');
          break;
        default:
          sb.append('[').append(quote(texts[i])).append(']');
      }
    }
    return sb.toString();
  }

  /** @return {@link #get()} */
  @Override
  public String toString() {
    return get();
  }

  /**
   * File text as a path segment or in a message: truncated ({@link
   * ReaException#truncateForMessage}) and quoted JSON-style, with {@code "} and {@code \}
   * escaped and control characters, U+007F and surrogates as {@code \}{@code uXXXX}.
   *
   * @return the quoted text
   */
  public static String quote(String s) {
    String t = ReaException.truncateForMessage(s);
    StringBuilder sb = new StringBuilder(t.length() + 2).append('"');
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20
          || c == 0x7F
          || (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
