package dev.rea.core.internal.set;

import dev.rea.core.internal.evidence.Derivations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * A safetensors index's {@code weight_map} (tensor name to member file name, CONTRACT section 9)
 * with every name, held compactly. A set is checked against {@link MappedNames} and needs the
 * names only to name its contradictions ({@link SafetensorsIndexReader#readExact}); an index maps
 * every tensor of the model (91,991 names, 4.8 MB of UTF-8, for DeepSeek-V3), and a {@code
 * HashMap} of {@code String}s would hold about 13 MB of them.
 *
 * <p>Layout, all in primitive arrays that grow with the entries actually read (nothing is sized
 * from a declared count):
 *
 * <ul>
 *   <li>names, UTF-8, front-coded in index order: every {@value #BLOCK}th name whole ({@code
 *       varint length, bytes}), the others as {@code varint shared-prefix length, varint suffix
 *       length, suffix}; {@code save_pretrained} writes the map sorted, so neighbours share most
 *       of their bytes (1.4 MB instead of 4.8 MB for DeepSeek-V3);
 *   <li>per entry its member file's number and a 32-bit hash of its name;
 *   <li>an open-addressing table from hash to entry, at most half full.
 * </ul>
 *
 * <p>The hash is {@link SipHash} with a key drawn at random for each map, so that a hostile index
 * cannot choose names that all fall on one slot and turn the lookups quadratic. Lookups compare
 * the stored name's bytes: the hash only chooses where to look.
 *
 * <p>Immutable once {@link #seal()}ed; built by one thread ({@link SafetensorsIndexReader}). Reads
 * are thread-safe.
 */
public final class WeightMap {
  /** Names per front-coding block: a lookup decodes at most this many names. */
  static final int BLOCK = 16;

  private final long k0;
  private final long k1;
  private byte[] data = new byte[4096];
  private int dataLength;
  private int[] blockStart = new int[16];
  private int[] hashes = new int[64];
  private int[] fileOf = new int[64];
  private int size;
  /** Entry + 1 per slot; 0 is empty. Length a power of two, at least twice {@link #size}. */
  private int[] table = new int[128];
  private byte[] previous = new byte[64];
  private int previousLength;
  private int longest;
  private final List<String> files = new ArrayList<>();
  private final Map<String, Integer> fileIds = new HashMap<>();
  private int[] perFile = new int[4];
  private List<String> sortedFiles = List.of();

  WeightMap() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    this.k0 = r.nextLong();
    this.k1 = r.nextLong();
  }

  /**
   * @param file a member file name
   * @return its number in this map, given on first sight
   */
  int fileId(String file) {
    Integer id = fileIds.get(file);
    if (id == null) {
      id = files.size();
      files.add(file);
      fileIds.put(file, id);
      if (id == perFile.length) {
        perFile = Arrays.copyOf(perFile, id * 2);
      }
    }
    return id;
  }

  /**
   * Adds one mapping, in index order.
   *
   * @param name the tensor name's UTF-8 bytes, {@code name[0..length)}
   * @param file the file's number from {@link #fileId}
   * @return -1 when added, or the entry already holding that name (nothing is added)
   */
  int add(byte[] name, int length, int file) {
    int h = hash(name, 0, length);
    int found = find(name, length, h);
    if (found >= 0) {
      return found;
    }
    if (size == hashes.length) {
      hashes = Arrays.copyOf(hashes, size * 2);
      fileOf = Arrays.copyOf(fileOf, size * 2);
    }
    if (size % BLOCK == 0) {
      int block = size / BLOCK;
      if (block == blockStart.length) {
        blockStart = Arrays.copyOf(blockStart, block * 2);
      }
      blockStart[block] = dataLength;
      room(5 + length);
      putVarint(length);
      System.arraycopy(name, 0, data, dataLength, length);
      dataLength += length;
    } else {
      int shared = 0;
      int max = Math.min(length, previousLength);
      while (shared < max && previous[shared] == name[shared]) {
        shared++;
      }
      room(10 + length - shared);
      putVarint(shared);
      putVarint(length - shared);
      System.arraycopy(name, shared, data, dataLength, length - shared);
      dataLength += length - shared;
    }
    if (previous.length < length) {
      previous = new byte[Math.max(length, previous.length * 2)];
    }
    System.arraycopy(name, 0, previous, 0, length);
    previousLength = length;
    longest = Math.max(longest, length);
    hashes[size] = h;
    fileOf[size] = file;
    perFile[file]++;
    size++;
    if (size * 2 > table.length) {
      rehash(table.length * 2);
    }
    insert(size - 1);
    return -1;
  }

  /** Ends building: trims the arrays and orders the file names. */
  void seal() {
    data = Arrays.copyOf(data, dataLength);
    hashes = Arrays.copyOf(hashes, size);
    fileOf = Arrays.copyOf(fileOf, size);
    blockStart = Arrays.copyOf(blockStart, (size + BLOCK - 1) / BLOCK);
    previous = new byte[0];
    List<String> sorted = new ArrayList<>(files);
    sorted.sort(Derivations::compareCodePoints);
    sortedFiles = List.copyOf(sorted);
  }

  /** @return the number of tensor names mapped */
  public int size() {
    return size;
  }

  /** @return the distinct member file names, in code-point order */
  public List<String> files() {
    return sortedFiles;
  }

  /**
   * @param tensor a tensor name
   * @return the file the index maps it to, or null when it maps no such tensor
   */
  public @Nullable String get(String tensor) {
    int e = find(tensor);
    return e < 0 ? null : files.get(fileOf[e]);
  }

  /**
   * @param tensor a tensor name
   * @return its entry (0-based, in index order), or -1
   */
  public int find(String tensor) {
    byte[] b = tensor.getBytes(StandardCharsets.UTF_8);
    return find(b, b.length, hash(b, 0, b.length));
  }

  /** @return the file of an entry */
  public String fileOf(int entry) {
    return files.get(fileOf[entry]);
  }

  /** @return the number of a file ({@link #fileId} order), or -1 when no tensor maps to it */
  public int fileNumber(String file) {
    Integer id = fileIds.get(file);
    return id == null ? -1 : id;
  }

  /** @return the file number of an entry */
  public int fileNumberOf(int entry) {
    return fileOf[entry];
  }

  /** @return how many tensors the index maps to a file number */
  public int count(int fileNumber) {
    return fileNumber < 0 ? 0 : perFile[fileNumber];
  }

  /** @return the tensor name of an entry */
  public String name(int entry) {
    byte[] out = new byte[longest];
    int n = decode(entry, out);
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  private int find(byte[] name, int length, int h) {
    int mask = table.length - 1;
    byte[] scratch = null;
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      int e = table[slot] - 1;
      if (e < 0) {
        return -1;
      }
      if (hashes[e] == h) {
        if (scratch == null) {
          scratch = new byte[Math.max(longest, length)];
        }
        int n = decode(e, scratch);
        if (n == length && Arrays.equals(scratch, 0, n, name, 0, length)) {
          return e;
        }
      }
    }
  }

  /** Decodes entry {@code e}'s name into {@code out}; returns its length. */
  private int decode(int e, byte[] out) {
    byte[] d = data;
    int at = blockStart[e / BLOCK];
    int length = 0;
    for (int i = e - e % BLOCK; i <= e; i++) {
      int shared = 0;
      if (i % BLOCK != 0) {
        int shift = 0;
        int b;
        do {
          b = d[at++];
          shared |= (b & 0x7F) << shift;
          shift += 7;
        } while (b < 0);
      }
      int suffix = 0;
      int shift = 0;
      int b;
      do {
        b = d[at++];
        suffix |= (b & 0x7F) << shift;
        shift += 7;
      } while (b < 0);
      System.arraycopy(d, at, out, shared, suffix);
      at += suffix;
      length = shared + suffix;
    }
    return length;
  }

  private void putVarint(int v) {
    while ((v & ~0x7F) != 0) {
      data[dataLength++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    data[dataLength++] = (byte) v;
  }

  private void room(int more) {
    if (dataLength + more > data.length) {
      data = Arrays.copyOf(data, Math.max(dataLength + more, data.length * 2));
    }
  }

  private void rehash(int capacity) {
    table = new int[capacity];
    for (int e = 0; e < size; e++) {
      insert(e);
    }
  }

  private void insert(int e) {
    int mask = table.length - 1;
    int slot = hashes[e] & mask;
    while (table[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    table[slot] = e + 1;
  }

  private int hash(byte[] b, int off, int len) {
    long h = SipHash.hash(k0, k1, b, off, len);
    return (int) (h ^ (h >>> 32));
  }
}
