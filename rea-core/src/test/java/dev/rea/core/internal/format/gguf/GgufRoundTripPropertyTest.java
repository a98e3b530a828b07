package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.gguf.GgufBuilder.Built;
import dev.rea.core.internal.format.gguf.GgufBuilder.Value;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Property: any valid file the builder generates from a random seed (either byte order, v2/v3,
 * any alignment, every value type, nested arrays, tensors of many types in any physical order
 * with gaps) reads back with exactly its declarations: keys, value types, values and previews,
 * names, dims, offsets and type IDs. Uses QuickTheories (the project does not use jqwik; see the
 * parent pom); each example is a seed for {@link Random}, so a failure prints a reproducible seed.
 */
class GgufRoundTripPropertyTest {

  /** What the generator declared, to compare with what the reader reports. */
  private record Case(
      byte[] file,
      int version,
      ByteOrder order,
      long alignment,
      List<String> keys,
      List<ValueType> types,
      List<MetadataValue> values,
      List<ExpectedTensor> tensors,
      long dataOffset) {}

  private record ExpectedTensor(
      String name, long typeId, long[] dims, long offset, long elements, Long byteLength) {}

  private static final String ALPHABET = "abcxyz019 _-.Ġéß日本😀\u0000";

  private static final long[] TENSOR_TYPES = {
    0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
    28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 4, 5, 43, 99, 0xFFFFFFFFL
  };

  @Test
  void generatedFilesRoundTripTheirDeclarations() {
    qt().withFixedSeed(20_260_229L)
        .withExamples(400)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              Case c = generate(new Random(seed));
              try {
                check(c);
              } catch (ReaException e) {
                throw new AssertionError("seed " + seed + " was rejected: " + e.getMessage(), e);
              } catch (AssertionError e) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
              }
            });
  }

  private static void check(Case c) throws ReaException {
    ParsedHeader h = GgufTesting.read(c.file());
    FormatFacts.Gguf f = (FormatFacts.Gguf) h.facts();
    assertThat(f.version()).isEqualTo(c.version());
    assertThat(f.byteOrder()).isEqualTo(c.order() == ByteOrder.BIG_ENDIAN ? "big" : "little");
    assertThat(f.alignment()).isEqualTo(c.alignment());
    assertThat(f.tensorDataOffset()).isEqualTo(c.dataOffset());
    assertThat(h.metadata()).extracting(MetadataRow::key).containsExactlyElementsOf(c.keys());
    assertThat(h.metadata()).extracting(MetadataRow::type).containsExactlyElementsOf(c.types());
    assertThat(h.metadata()).extracting(MetadataRow::value).containsExactlyElementsOf(c.values());
    assertThat(h.tensors()).hasSameSizeAs(c.tensors());
    for (int i = 0; i < c.tensors().size(); i++) {
      ExpectedTensor e = c.tensors().get(i);
      TensorRow t = h.tensors().get(i);
      assertThat(t.index()).isEqualTo(i);
      assertThat(t.name()).isEqualTo(e.name());
      assertThat(t.typeId()).isEqualTo(e.typeId());
      assertThat(t.type()).isEqualTo(GgmlTypes.of(e.typeId()).label());
      List<Long> dims = new ArrayList<>();
      for (long d : e.dims()) {
        dims.add(d);
      }
      assertThat(t.shape()).isEqualTo(dims);
      assertThat(t.parameterCount()).isEqualTo(e.elements());
      assertThat(t.offset()).isEqualTo(e.offset());
      assertThat(t.fileOffset()).isEqualTo(c.dataOffset() + e.offset());
      assertThat(t.byteLength()).isEqualTo(e.byteLength());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Generator

  private static Case generate(Random r) {
    int version = r.nextInt(3) == 0 ? 2 : 3;
    ByteOrder order = version == 3 && r.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    GgufBuilder b = GgufBuilder.v3().version(version).order(order);
    List<String> keys = new ArrayList<>();
    List<ValueType> types = new ArrayList<>();
    List<MetadataValue> values = new ArrayList<>();
    Set<String> used = new HashSet<>();

    long alignment = 32;
    int alignmentAt = r.nextBoolean() ? r.nextInt(6) : -1;
    int kvs = r.nextInt(10);
    for (int i = 0; i <= kvs; i++) {
      if (i == alignmentAt) {
        alignment = 8L * (1 + r.nextInt(40));
        b.alignment(alignment);
        keys.add("general.alignment");
        types.add(ValueType.UINT32);
        values.add(new MetadataValue.IntegerValue(alignment));
        used.add("general.alignment");
      }
      if (i == kvs) {
        break;
      }
      String key;
      do {
        key = randomKey(r);
      } while (!used.add(key));
      int type = r.nextInt(13);
      Object[] v = randomValue(r, type, 1);
      b.kv(key, (Value) v[0]);
      keys.add(key);
      types.add(ValueType.byId(type));
      values.add((MetadataValue) v[1]);
    }

    // Tensors: sizes first, then a random physical order with random gaps.
    int n = r.nextInt(9);
    List<ExpectedTensor> tensors = new ArrayList<>();
    long[] sizes = new long[n];
    List<GgufBuilder.Tensor> specs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < n; i++) {
      long typeId = TENSOR_TYPES[r.nextInt(TENSOR_TYPES.length)];
      GgmlType t = GgmlTypes.of(typeId);
      int nd = r.nextInt(5);
      long[] dims = new long[nd];
      long elements = 1;
      for (int j = 0; j < nd; j++) {
        long d;
        if (j == 0 && t.rowMultiple() > 1) {
          d = t.rowMultiple() * r.nextInt(3);
        } else {
          d = r.nextInt(5);
        }
        dims[j] = d;
        elements *= d;
      }
      if (nd == 0 && t.rowMultiple() > 1) {
        // A scalar cannot hold a whole block of a block type: use one row instead.
        dims = new long[] {t.rowMultiple()};
        elements = t.rowMultiple();
      }
      String name;
      do {
        name = randomName(r);
      } while (!names.add(name));
      long size = GgufBuilder.storageBytes(typeId, elements);
      if (elements != 0 && size == 0) {
        size = 1 + r.nextInt(8); // unknown layouts: some bytes, so the tensor starts inside the file
      }
      sizes[i] = size;
      Long expectedLength;
      if (elements == 0) {
        expectedLength = t.kind() == GgmlType.Kind.UNKNOWN ? null : 0L;
      } else if (t.kind() == GgmlType.Kind.STANDARD || t.kind() == GgmlType.Kind.REMOVED) {
        expectedLength = size; // the builder's independent block table
      } else {
        expectedLength = null;
      }
      specs.add(new GgufBuilder.Tensor(name, typeId, dims).dataBytes(size));
      tensors.add(new ExpectedTensor(name, typeId, dims, 0, elements, expectedLength));
    }
    List<Integer> physical = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      physical.add(i);
    }
    Collections.shuffle(physical, r);
    long next = 0;
    long[] offsets = new long[n];
    for (int i : physical) {
      offsets[i] = next;
      next = GgufBuilder.pad(next + sizes[i], alignment) + alignment * r.nextInt(2);
    }
    for (int i = 0; i < n; i++) {
      specs.get(i).offset(offsets[i]);
      b.tensor(specs.get(i));
      ExpectedTensor e = tensors.get(i);
      tensors.set(i, new ExpectedTensor(e.name(), e.typeId(), e.dims(), offsets[i], e.elements(), e.byteLength()));
    }
    b.layoutAlignment(alignment);
    b.padAfterLastTensor(r.nextBoolean());
    Built built = b.build();
    long dataOffset = built.dataOffset();
    if (n == 0 && built.bytes().length == built.headerLength()) {
      dataOffset = built.headerLength();
    }
    return new Case(built.bytes(), version, order, alignment, keys, types, values, tensors, dataOffset);
  }

  private static String randomKey(Random r) {
    String alnum = "abcdefghijklmnopqrstuvwxyz0123456789";
    String seps = "._-";
    StringBuilder sb = new StringBuilder();
    int parts = 1 + r.nextInt(4);
    for (int p = 0; p < parts; p++) {
      if (p > 0) {
        sb.append(seps.charAt(r.nextInt(3)));
      }
      int len = 1 + r.nextInt(8);
      for (int k = 0; k < len; k++) {
        sb.append(alnum.charAt(r.nextInt(alnum.length())));
      }
    }
    return sb.toString();
  }

  private static String randomString(Random r, int maxChars) {
    StringBuilder sb = new StringBuilder();
    int len = r.nextInt(maxChars + 1);
    for (int k = 0; k < len; k++) {
      sb.appendCodePoint(ALPHABET.codePointAt(ALPHABET.offsetByCodePoints(0, r.nextInt(ALPHABET.codePointCount(0, ALPHABET.length())))));
    }
    return sb.toString();
  }

  private static String randomName(Random r) {
    String s = randomString(r, 30);
    while (s.getBytes(StandardCharsets.UTF_8).length > 64) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  /** @return {builder value, expected MetadataValue} for a value of the given type */
  private static Object[] randomValue(Random r, int type, int level) {
    switch (type) {
      case 0:
        {
          int v = r.nextInt(256);
          return new Object[] {GgufBuilder.u8(v), new MetadataValue.IntegerValue(v)};
        }
      case 1:
        {
          int v = r.nextInt(256) - 128;
          return new Object[] {GgufBuilder.i8(v), new MetadataValue.IntegerValue(v)};
        }
      case 2:
        {
          int v = r.nextInt(65536);
          return new Object[] {GgufBuilder.u16(v), new MetadataValue.IntegerValue(v)};
        }
      case 3:
        {
          int v = r.nextInt(65536) - 32768;
          return new Object[] {GgufBuilder.i16(v), new MetadataValue.IntegerValue(v)};
        }
      case 4:
        {
          long v = r.nextInt() & 0xFFFFFFFFL;
          return new Object[] {GgufBuilder.u32(v), new MetadataValue.IntegerValue(v)};
        }
      case 5:
        {
          int v = r.nextInt();
          return new Object[] {GgufBuilder.i32(v), new MetadataValue.IntegerValue(v)};
        }
      case 6:
        {
          int bits = r.nextInt();
          return new Object[] {
            GgufBuilder.f32Bits(bits), new MetadataValue.FloatValue(Float.intBitsToFloat(bits))
          };
        }
      case 7:
        {
          boolean v = r.nextBoolean();
          return new Object[] {GgufBuilder.bool(v), new MetadataValue.BoolValue(v)};
        }
      case 8:
        {
          String s = randomString(r, 24);
          return new Object[] {GgufBuilder.str(s), new MetadataValue.StringValue(s)};
        }
      case 10:
        {
          long v = r.nextLong();
          return new Object[] {GgufBuilder.u64(v), new MetadataValue.IntegerValue(v)};
        }
      case 11:
        {
          long v = r.nextLong();
          return new Object[] {GgufBuilder.i64(v), new MetadataValue.IntegerValue(v)};
        }
      case 12:
        {
          double v = Double.longBitsToDouble(r.nextLong());
          return new Object[] {GgufBuilder.f64(v), new MetadataValue.FloatValue(v)};
        }
      default:
        {
          // ARRAY: any element type, nested up to 4 levels here.
          int element = level >= 4 ? r.nextInt(9) : r.nextInt(13);
          int count = r.nextInt(13);
          List<Value> built = new ArrayList<>();
          List<MetadataValue> preview = new ArrayList<>();
          for (int k = 0; k < count; k++) {
            Object[] e = randomValue(r, element, level + 1);
            built.add((Value) e[0]);
            if (k < 8) {
              preview.add((MetadataValue) e[1]);
            }
          }
          return new Object[] {
            GgufBuilder.array(element, built),
            new MetadataValue.ArrayValue(ValueType.byId(element), count, preview, count <= 8)
          };
        }
    }
  }
}
