package dev.rea.core.internal.set;

import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The name of one member of a GGUF split set, {@code PREFIX-NNNNN-of-MMMMM.gguf}: five decimal
 * digits each, the member number 1-based (CONTRACT section 9). Upstream: llama.cpp's {@code
 * llama_split_path} formats {@code "%s-%05d-of-%05d.gguf"} with {@code split_no + 1} and {@code
 * split_count} (src/llama.cpp), and gguf-split names its outputs with it
 * (ggml-org/llama.cpp tools/gguf-split/gguf-split.cpp @ 3e00f05f). {@code split.count} is a
 * UINT16 there, so five digits always suffice; a name with more or fewer digits is not a member
 * name.
 *
 * @param prefix everything before {@code -NNNNN-of-MMMMM.gguf} (not empty)
 * @param number the member number, 1 to {@code count}
 * @param count the number of members, 1 to 99,999
 */
public record GgufSplitName(String prefix, int number, int count) {
  private static final String OF = "-of-";
  private static final String EXT = ".gguf";
  /** Length of {@code -NNNNN-of-MMMMM.gguf}. */
  private static final int TAIL = 1 + 5 + OF.length() + 5 + EXT.length();

  public GgufSplitName {
    Objects.requireNonNull(prefix, "prefix");
    if (prefix.isEmpty() || count < 1 || count > 99_999 || number < 1 || number > count) {
      throw new IllegalArgumentException(
          "not a split member: " + prefix + " " + number + " of " + count);
    }
  }

  /**
   * Parses a file name.
   *
   * @param fileName a file name (no directory)
   * @return the parts, or null when the name is not {@code PREFIX-NNNNN-of-MMMMM.gguf} with
   *     {@code 1 <= NNNNN <= MMMMM} and a non-empty prefix
   */
  public static @Nullable GgufSplitName parse(String fileName) {
    int n = fileName.length();
    if (n <= TAIL || !fileName.endsWith(EXT)) {
      return null;
    }
    int start = n - TAIL;
    if (fileName.charAt(start) != '-' || !fileName.startsWith(OF, start + 6)) {
      return null;
    }
    int number = digits(fileName, start + 1);
    int count = digits(fileName, start + 6 + OF.length());
    if (number < 1 || count < 1 || number > count) {
      return null;
    }
    return new GgufSplitName(fileName.substring(0, start), number, count);
  }

  /** @return the five ASCII digits at {@code at} as a number, or -1 */
  private static int digits(String s, int at) {
    int v = 0;
    for (int i = at; i < at + 5; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /**
   * @param memberNumber 1-based member number, 1 to {@code count}
   * @return the file name of that member of this set
   */
  public String member(int memberNumber) {
    if (memberNumber < 1 || memberNumber > count) {
      throw new IllegalArgumentException("member " + memberNumber + " of " + count);
    }
    return String.format(Locale.ROOT, "%s-%05d-of-%05d.gguf", prefix, memberNumber, count);
  }

  /** @return the name of the first member */
  public String first() {
    return member(1);
  }

  /** @return this member's file name */
  public String fileName() {
    return member(number);
  }
}
