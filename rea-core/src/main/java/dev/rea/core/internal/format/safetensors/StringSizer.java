package dev.rea.core.internal.format.safetensors;

import dev.rea.core.internal.io.JsonText;
import dev.rea.core.text.Utf8;
import java.io.Writer;
import org.jspecify.annotations.Nullable;

/**
 * Receives a JSON string value in chunks ({@code JsonParser.readString(Writer)}, which never
 * holds the whole value) and measures it as the Evidence JSON writes it: its {@link
 * #escapedLength()} (UTF-8 bytes plus what escaping adds, as {@link JsonText#escapedLength}),
 * whether it holds a lone surrogate (the test of {@link Utf8#findLoneSurrogate}, carried across
 * chunk boundaries) and whether it holds a surrogate pair. Its text is kept only while that
 * length stays within {@code keepBytes}: a value the retained budget will refuse is measured
 * without being expanded (specification, "Bounds and unsupported inputs": the budget applies
 * "before retaining rows or expanding strings").
 */
final class StringSizer extends Writer {
  private long keepBytes;
  /** The kept text: compact (a byte per character) while Latin-1, and never over keepBytes. */
  private final StringBuilder kept = new StringBuilder();
  private boolean keeping;
  private long escaped;
  private boolean pendingHigh;
  private boolean lone;
  private boolean pair;

  /**
   * @param keepBytes the largest {@link #escapedLength()} whose text is kept; negative to keep
   *     nothing
   */
  StringSizer(long keepBytes) {
    reset(keepBytes);
  }

  /** Forgets the last value, to measure the next one; @return this */
  StringSizer reset(long keepBytes) {
    this.keepBytes = keepBytes;
    keeping = keepBytes >= 0;
    kept.setLength(0);
    if (kept.capacity() > 4096) {
      kept.trimToSize(); // a long value's buffer is not kept for the next, short one
    }
    escaped = 0;
    pendingHigh = false;
    lone = false;
    pair = false;
    return this;
  }

  @Override
  public void write(char[] cbuf, int off, int len) {
    for (int i = off; i < off + len; i++) {
      char ch = cbuf[i];
      if (pendingHigh) {
        pendingHigh = false;
        if (Character.isLowSurrogate(ch)) {
          escaped += 4;
          pair = true;
          continue;
        }
        lone = true;
        escaped += 3;
      }
      if (ch < 0x80) {
        escaped += 1 + JsonText.escapeExtra(ch);
      } else if (ch < 0x800) {
        escaped += 2;
      } else if (Character.isHighSurrogate(ch)) {
        pendingHigh = true;
      } else if (Character.isLowSurrogate(ch)) {
        lone = true;
        escaped += 3;
      } else {
        escaped += 3;
      }
    }
    if (keeping) {
      // A pending high surrogate counts its 3 bytes now: with its low one it makes 4.
      if (escapedLength() > keepBytes) {
        keeping = false;
        kept.setLength(0);
        kept.trimToSize();
      } else {
        kept.append(cbuf, off, len);
      }
    }
  }

  @Override
  public void write(String str, int off, int len) {
    write(str.substring(off, off + len).toCharArray(), 0, len);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  /** @return true when a surrogate without its partner was seen (including a final high) */
  boolean lone() {
    return lone || pendingHigh;
  }

  /** @return true when a surrogate pair was seen */
  boolean sawPair() {
    return pair;
  }

  /**
   * @return the value's length in bytes in the Evidence JSON, without quotes (a lone surrogate
   *     counts three bytes, as in {@link JsonText#escapedLength}); meaningful for the whole
   *     value once it has been written
   */
  long escapedLength() {
    return escaped + (pendingHigh ? 3 : 0);
  }

  /** @return true when the text was kept: its escaped length stayed within {@code keepBytes} */
  boolean kept() {
    return keeping;
  }

  /** @return the kept characters (empty when not {@link #kept()}); valid until reset */
  CharSequence keptText() {
    return kept;
  }

  /** @return the value, or null when its escaped length went over {@code keepBytes} */
  @Nullable String text() {
    return keeping ? kept.toString() : null;
  }
}
