package dev.rea.bench.corpus;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Deterministic synthetic tokenizer vocabularies shaped like real ones: byte-level BPE pieces as
 * in GPT-2/Llama 3/Qwen 2 (every byte mapped to a printable code point, so non-Latin text shows
 * up as runs of two-byte characters such as {@code Ð¿Ñĥ}, and a leading space as {@code Ġ}),
 * their merge rules ({@code "left right"}), and SentencePiece pieces as in Gemma/Llama 2 (real
 * Unicode text in many scripts with {@code ▁} for a leading space, byte fallback tokens {@code
 * <0xNN>}, control and unused tokens). Pieces are unique within a vocabulary. Every output depends
 * only on the seed.
 */
final class Vocabularies {
  private Vocabularies() {}

  /** A vocabulary: pieces as UTF-8, and parallel token types / scores (null for a BPE one). */
  record Vocab(byte[][] tokens, int[] types, float @Nullable [] scores) {}

  // llama.cpp token types (llama_token_type / gguf-py TokenType).
  static final int NORMAL = 1;
  static final int UNKNOWN = 2;
  static final int CONTROL = 3;
  static final int USER_DEFINED = 4;
  static final int BYTE = 6;

  private static final String LETTERS = "etaoinshrdlcumwfgypbvkjxqz";
  // Roughly English letter frequencies, per mille.
  private static final int[] LETTER_WEIGHTS = {
    127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1,
    1
  };
  private static final int LETTER_TOTAL = sum(LETTER_WEIGHTS);

  private static final String[] CODE_PIECES = {
    "();", "{", "}", "=>", "==", "!=", "++", "::", "->", "//", "/*", "*/", "\"", "'", "[", "]", ",",
    ".", ":", ";", "#", "$", "%", "&", "|", "<", ">", "?", "@", "\\", "^", "_", "`", "~", "+", "-",
    "*", "/", "="
  };

  /** Unicode blocks for "foreign" text: first code point, count, weight. */
  private static final int[][] SCRIPTS = {
    {0x0430, 32, 30}, // Cyrillic lower case
    {0x4E00, 20902, 25}, // CJK unified ideographs
    {0x3041, 86, 6}, // Hiragana
    {0x30A1, 90, 5}, // Katakana
    {0xAC00, 11172, 8}, // Hangul syllables
    {0x0627, 36, 7}, // Arabic letters
    {0x0905, 53, 6}, // Devanagari
    {0x0E01, 47, 4}, // Thai
    {0x03B1, 25, 4}, // Greek lower case
    {0x05D0, 27, 3}, // Hebrew
    {0x00E0, 32, 12}, // Latin-1 accented lower case
    {0x1F600, 80, 2}, // emoji (four-byte UTF-8)
  };
  private static final int SCRIPT_TOTAL;

  static {
    int t = 0;
    for (int[] s : SCRIPTS) {
      t += s[2];
    }
    SCRIPT_TOTAL = t;
  }

  /** GPT-2 {@code bytes_to_unicode}: the printable code point standing for each byte. */
  private static final char[] BYTE_CHAR = new char[256];

  static {
    int n = 0;
    for (int b = 0; b < 256; b++) {
      boolean printable =
          (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      BYTE_CHAR[b] = printable ? (char) b : (char) (256 + n++);
    }
  }

  private static final char SPACE = BYTE_CHAR[' ']; // 'Ġ'
  private static final char NEWLINE = BYTE_CHAR['\n']; // 'Ċ'

  private static int sum(int[] w) {
    int s = 0;
    for (int x : w) {
      s += x;
    }
    return s;
  }

  private static char letter(Random r) {
    int x = r.nextInt(LETTER_TOTAL);
    for (int i = 0; i < LETTER_WEIGHTS.length; i++) {
      x -= LETTER_WEIGHTS[i];
      if (x < 0) {
        return LETTERS.charAt(i);
      }
    }
    return 'e';
  }

  /** Word length: mostly 2 to 8, sometimes longer. */
  private static int wordLength(Random r, int mean) {
    int len = 1 + (int) Math.round(Math.abs(r.nextGaussian()) * mean);
    return Math.min(len, 24);
  }

  private static String word(Random r, int mean) {
    int len = wordLength(r, mean);
    StringBuilder sb = new StringBuilder(len);
    for (int i = 0; i < len; i++) {
      sb.append(letter(r));
    }
    return sb.toString();
  }

  private static int foreignCodePoint(Random r) {
    int x = r.nextInt(SCRIPT_TOTAL);
    for (int[] s : SCRIPTS) {
      x -= s[2];
      if (x < 0) {
        // Skew towards the start of big blocks (common characters).
        int n = s[1];
        int k = n > 1000 ? (int) Math.min(n - 1, Math.abs(r.nextGaussian()) * 1500) : r.nextInt(n);
        return s[0] + k;
      }
    }
    return 0x0430;
  }

  private static String foreign(Random r, int chars) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < chars; i++) {
      sb.appendCodePoint(foreignCodePoint(r));
    }
    return sb.toString();
  }

  /** Maps text to its byte-level BPE form: each UTF-8 byte becomes one code point. */
  private static String byteLevel(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    char[] c = new char[b.length];
    for (int i = 0; i < b.length; i++) {
      c[i] = BYTE_CHAR[b[i] & 0xFF];
    }
    return new String(c);
  }

  private static String capitalize(String w) {
    return Character.toUpperCase(w.charAt(0)) + w.substring(1);
  }

  /** One byte-level BPE piece (Llama 3 / Qwen 2 / GPT-2 style). */
  private static String bpePiece(Random r) {
    int k = r.nextInt(100);
    if (k < 46) {
      return SPACE + word(r, 6);
    }
    if (k < 66) {
      return word(r, 3);
    }
    if (k < 74) {
      return SPACE + capitalize(word(r, 6));
    }
    if (k < 86) {
      String t = byteLevel(foreign(r, 1 + r.nextInt(3)));
      return r.nextBoolean() ? SPACE + t : t;
    }
    if (k < 92) {
      // Indentation, newlines and code.
      StringBuilder sb = new StringBuilder();
      int n = 1 + r.nextInt(3);
      for (int i = 0; i < n; i++) {
        int c = r.nextInt(4);
        if (c == 0) {
          sb.append(NEWLINE);
        } else if (c == 1) {
          sb.append(SPACE).append(SPACE);
        } else {
          sb.append(CODE_PIECES[r.nextInt(CODE_PIECES.length)]);
        }
      }
      return sb.toString();
    }
    if (k < 96) {
      return Integer.toString(r.nextInt(1000));
    }
    return SPACE + word(r, 4) + CODE_PIECES[r.nextInt(CODE_PIECES.length)];
  }

  /**
   * A byte-level BPE vocabulary: the 256 byte tokens in {@code bytes_to_unicode} order, unique
   * generated pieces, then {@code specials} control tokens named like Llama 3's.
   *
   * @param size total tokens
   * @param specials trailing control tokens
   */
  static Vocab byteLevelBpe(long seed, int size, int specials) {
    Random r = new Random(seed);
    byte[][] tokens = new byte[size][];
    int[] types = new int[size];
    Set<String> seen = new HashSet<>(size * 2);
    int normal = size - specials;
    int i = 0;
    // The byte tokens in bytes_to_unicode order: printable bytes first, then the remapped ones,
    // which is the order of their code points.
    char[] byteTokens = BYTE_CHAR.clone();
    java.util.Arrays.sort(byteTokens);
    for (int b = 0; b < 256 && i < normal; b++) {
      String s = String.valueOf(byteTokens[b]);
      seen.add(s);
      tokens[i] = s.getBytes(StandardCharsets.UTF_8);
      types[i++] = NORMAL;
    }
    while (i < normal) {
      String s = bpePiece(r);
      if (seen.add(s)) {
        tokens[i] = s.getBytes(StandardCharsets.UTF_8);
        types[i++] = NORMAL;
      }
    }
    String[] named = {
      "<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>",
      "<|reserved_special_token_1|>", "<|finetune_right_pad_id|>", "<|reserved_special_token_2|>",
      "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>", "<|python_tag|>"
    };
    int reserved = 3;
    for (int k = 0; k < specials; k++) {
      String s = k < named.length ? named[k] : "<|reserved_special_token_" + reserved++ + "|>";
      tokens[i] = s.getBytes(StandardCharsets.UTF_8);
      types[i++] = CONTROL;
    }
    return new Vocab(tokens, types, null);
  }

  /**
   * BPE merge rules {@code "left right"}: a generated piece split at a random character, unique.
   * Real merge lists hold more rules than the vocabulary has pieces; here a piece may be split at
   * several places.
   *
   * @param normal number of leading normal tokens to draw from
   */
  static byte[][] merges(long seed, byte[][] tokens, int normal, int count) {
    Random r = new Random(seed);
    byte[][] out = new byte[count][];
    Set<String> seen = new HashSet<>(count * 2);
    int i = 0;
    int misses = 0;
    while (i < count) {
      String t = new String(tokens[256 + r.nextInt(normal - 256)], StandardCharsets.UTF_8);
      int chars = t.codePointCount(0, t.length());
      if (chars < 2) {
        continue;
      }
      int cut = t.offsetByCodePoints(0, 1 + r.nextInt(chars - 1));
      String m = t.substring(0, cut) + ' ' + t.substring(cut);
      if (seen.add(m)) {
        out[i++] = m.getBytes(StandardCharsets.UTF_8);
      } else if (++misses > 50 * count) {
        throw new IllegalStateException("cannot find " + count + " distinct merges");
      }
    }
    return out;
  }

  /** One SentencePiece piece (Gemma / Llama 2 style): real Unicode, '▁' for a leading space. */
  private static String spmPiece(Random r) {
    int k = r.nextInt(100);
    String body;
    if (k < 45) {
      body = word(r, 4);
    } else if (k < 55) {
      body = capitalize(word(r, 4));
    } else if (k < 88) {
      body = foreign(r, 1 + r.nextInt(3));
    } else if (k < 94) {
      StringBuilder sb = new StringBuilder();
      int n = 1 + r.nextInt(3);
      for (int i = 0; i < n; i++) {
        sb.append(CODE_PIECES[r.nextInt(CODE_PIECES.length)]);
      }
      body = sb.toString();
    } else {
      body = word(r, 3) + foreign(r, 1);
    }
    return r.nextInt(100) < 48 ? "\u2581" + body : body;
  }

  /**
   * A SentencePiece vocabulary shaped like Gemma 3's: {@code <pad> <eos> <bos> <unk> <mask>
   * [multimodal]}, {@code unusedLow} {@code <unusedN>} control tokens, turn markers, the 256 byte
   * tokens {@code <0xNN>}, unique generated pieces, image markers and {@code <unusedN>} tokens up
   * to {@code size}. Scores are 0 for control tokens and {@code -rank} for pieces.
   *
   * @param unusedHigh trailing {@code <unusedN>} tokens
   */
  static Vocab sentencePiece(long seed, int size, int unusedLow, int unusedHigh) {
    Random r = new Random(seed);
    byte[][] tokens = new byte[size][];
    int[] types = new int[size];
    float[] scores = new float[size];
    Set<String> seen = new HashSet<>(size * 2);
    int i = 0;
    String[] head = {"<pad>", "<eos>", "<bos>", "<unk>", "<mask>", "[multimodal]"};
    for (String s : head) {
      types[i] = s.equals("<unk>") ? UNKNOWN : CONTROL;
      tokens[i++] = s.getBytes(StandardCharsets.UTF_8);
    }
    int unused = 0;
    for (int k = 0; k < unusedLow; k++) {
      types[i] = CONTROL;
      tokens[i++] = ("<unused" + unused++ + ">").getBytes(StandardCharsets.UTF_8);
    }
    for (String s : new String[] {"<start_of_turn>", "<end_of_turn>"}) {
      types[i] = USER_DEFINED;
      tokens[i++] = s.getBytes(StandardCharsets.UTF_8);
    }
    for (int b = 0; b < 256; b++) {
      types[i] = BYTE;
      tokens[i++] = String.format("<0x%02X>", b).getBytes(StandardCharsets.UTF_8);
    }
    int piecesEnd = size - unusedHigh - 2;
    int rank = 0;
    while (i < piecesEnd) {
      String s = spmPiece(r);
      if (seen.add(s)) {
        types[i] = NORMAL;
        scores[i] = -(rank++);
        tokens[i++] = s.getBytes(StandardCharsets.UTF_8);
      }
    }
    for (String s : new String[] {"<start_of_image>", "<end_of_image>"}) {
      types[i] = USER_DEFINED;
      tokens[i++] = s.getBytes(StandardCharsets.UTF_8);
    }
    while (i < size) {
      types[i] = CONTROL;
      tokens[i++] = ("<unused" + unused++ + ">").getBytes(StandardCharsets.UTF_8);
    }
    return new Vocab(tokens, types, scores);
  }

  /** @return total UTF-8 bytes of the strings */
  static long bytes(byte[][] strings) {
    long n = 0;
    for (byte[] s : strings) {
      n += s.length;
    }
    return n;
  }
}
