package dev.rea.core.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;

import dev.rea.core.error.ReaException;
import dev.rea.core.format.gguf.GgufTesting;
import dev.rea.core.inspect.HashMode;
import dev.rea.core.inspect.ModelInspector;
import dev.rea.core.testing.TestRecords;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.erdtman.jcs.JsonCanonicalizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;
import tools.jackson.core.JsonGenerator;

/**
 * {@link CanonicalGenerator} writes exactly what the RFC 8785 reference implementation makes of
 * the JSON text a Jackson generator writes for the same calls: on random JSON trees (random
 * names and strings over all of Unicode, control characters, every number kind the writers
 * use) and on the Evidence records of test records, committed test files and the shared corpus.
 */
class CanonicalGeneratorTest {
  @TempDir Path tmp;

  // ---------------------------------------------------------------------------------------------
  // Random trees

  /** A JSON tree: Object[] of (String name, Object value) pairs, List, String, numbers, Boolean, null. */
  private static void write(JsonGenerator g, Object node) {
    if (node == null) {
      g.writeNull();
    } else if (node instanceof Object[] members) {
      g.writeStartObject();
      for (int i = 0; i < members.length; i += 2) {
        g.writeName((String) members[i]);
        write(g, members[i + 1]);
      }
      g.writeEndObject();
    } else if (node instanceof List<?> list) {
      g.writeStartArray();
      for (Object e : list) {
        write(g, e);
      }
      g.writeEndArray();
    } else if (node instanceof String s) {
      g.writeString(s);
    } else if (node instanceof Integer i) {
      g.writeNumber(i.intValue());
    } else if (node instanceof Long l) {
      g.writeNumber(l.longValue());
    } else if (node instanceof Double d) {
      g.writeNumber(d.doubleValue());
    } else if (node instanceof Float f) {
      g.writeNumber(f.floatValue());
    } else if (node instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (node instanceof NumberText t) {
      g.writeNumber(t.text);
    } else if (node instanceof Boolean b) {
      g.writeBoolean(b);
    } else {
      throw new IllegalArgumentException(node.getClass().toString());
    }
  }

  /** A number given as text ({@code writeNumber(String)}), as EvidenceJson writes floats. */
  private record NumberText(String text) {}

  private static byte[] reference(Object tree) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      write(g, tree);
    }
    return new JsonCanonicalizer(out.toByteArray()).getEncodedUTF8();
  }

  private static byte[] fast(Object tree) {
    CanonicalGenerator g = new CanonicalGenerator();
    write(g, tree);
    return g.toByteArray();
  }

  private static String randomString(Random r) {
    int n = r.nextInt(12);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(10);
      int cp;
      if (kind < 3) {
        cp = 0x20 + r.nextInt(0x5F); // printable ASCII, quotes and backslash included
      } else if (kind == 3) {
        cp = r.nextInt(0x20); // control characters
      } else if (kind == 4) {
        cp = 0x7F + r.nextInt(0x800 - 0x7F);
      } else if (kind == 5) {
        cp = 0x800 + r.nextInt(0xD800 - 0x800);
      } else if (kind == 6) {
        cp = 0xE000 + r.nextInt(0x10000 - 0xE000);
      } else if (kind == 7) {
        cp = 0x10000 + r.nextInt(0x110000 - 0x10000);
      } else {
        String special = "\"\\/\b\f\n\r\tab";
        cp = special.charAt(r.nextInt(special.length()));
      }
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private static Object randomNumber(Random r) {
    switch (r.nextInt(8)) {
      case 0:
        return r.nextInt();
      case 1:
        return r.nextLong();
      case 2:
        return (long) r.nextInt(1000) - 500;
      case 3:
        {
          double d = Double.longBitsToDouble(r.nextLong());
          return Double.isFinite(d) ? d : 0.5;
        }
      case 4:
        {
          float f = Float.intBitsToFloat(r.nextInt());
          return Float.isFinite(f) ? new NumberText(Float.toString(f)) : new NumberText("1.0");
        }
      case 5:
        {
          float f = Float.intBitsToFloat(r.nextInt());
          return Float.isFinite(f) ? f : 2.5f;
        }
      case 6:
        return new BigInteger(70, r).subtract(BigInteger.ONE.shiftLeft(69));
      default:
        {
          // Integers around 2^53, where the reference starts rounding.
          long base = (1L << 53) + r.nextInt(64) - 32;
          return r.nextBoolean() ? base : -base;
        }
    }
  }

  private static Object randomTree(Random r, int depth) {
    int k = depth > 4 ? r.nextInt(4) : r.nextInt(7);
    switch (k) {
      case 0:
        return randomString(r);
      case 1:
        return randomNumber(r);
      case 2:
        return r.nextInt(3) == 0 ? null : r.nextBoolean();
      case 3:
        return r.nextBoolean() ? "ascii-" + r.nextInt(100) : randomString(r);
      case 4:
      case 5:
        {
          int n = r.nextInt(6);
          List<String> names = new ArrayList<>();
          while (names.size() < n) {
            String name = r.nextBoolean() ? randomString(r) : "k" + r.nextInt(40);
            if (!names.contains(name)) {
              names.add(name);
            }
          }
          Object[] members = new Object[2 * n];
          for (int i = 0; i < n; i++) {
            members[2 * i] = names.get(i);
            members[2 * i + 1] = randomTree(r, depth + 1);
          }
          return members;
        }
      default:
        {
          int n = r.nextInt(5);
          List<Object> list = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            list.add(randomTree(r, depth + 1));
          }
          return list;
        }
    }
  }

  @Test
  void randomTreesCanonicalizeExactlyLikeTheReference() {
    Gen<Long> seeds = SourceDSL.longs().all();
    qt().withExamples(3000)
        .forAll(seeds)
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              // The reference accepts only an object or an array at the top.
              Object inner = r.nextBoolean() ? randomTree(r, 0) : randomTree(r, 4);
              Object tree = r.nextBoolean() ? java.util.Arrays.asList(inner) : new Object[] {"v", inner};
              try {
                assertThat(new String(fast(tree), StandardCharsets.UTF_8))
                    .isEqualTo(new String(reference(tree), StandardCharsets.UTF_8));
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  @Test
  void wideObjectsAreSortedByUtf16CodeUnits() throws IOException {
    // More members than the insertion-sort threshold, names that order differently by code
    // point and by UTF-16 unit (U+1F600 is D83D DE00, below U+FB33).
    Random r = new Random(42);
    List<String> names = new ArrayList<>();
    names.add("\ud83d\ude00");
    names.add("\ufb33");
    names.add("\u20ac");
    for (int i = 0; i < 200; i++) {
      names.add("n" + r.nextInt(1_000_000) + "-" + i);
    }
    java.util.Collections.shuffle(names, r);
    Object[] members = new Object[names.size() * 2];
    for (int i = 0; i < names.size(); i++) {
      members[2 * i] = names.get(i);
      members[2 * i + 1] = i;
    }
    byte[] fast = fast(members);
    assertThat(fast).isEqualTo(reference(members));
    String text = new String(fast, StandardCharsets.UTF_8);
    assertThat(text.indexOf("\ud83d\ude00")).isLessThan(text.indexOf("\ufb33"));
  }

  @Test
  void exactValuesForTheNumberEdges() {
    assertThat(new String(fast(List.of(9007199254740993L, -9007199254740993L, 1L << 53, 0,
            new NumberText("1.0E-5"), new NumberText("-0.0"), 1.0e21, 1.0e-7, 100.0f)),
        StandardCharsets.UTF_8))
        .isEqualTo("[9007199254740992,-9007199254740992,9007199254740992,0,0.00001,0,1e+21,"
            + "1e-7,100]");
  }

  @Test
  void unsignedDecimalStringsAreTheDigitsOfLongToUnsignedString() {
    Random r = new Random(11);
    List<Long> values = new ArrayList<>(List.of(0L, 9L, 10L, 99L, 100L, Long.MAX_VALUE, -1L,
        Long.MIN_VALUE));
    for (int i = 0; i < 2000; i++) {
      values.add(r.nextInt(4) == 0 ? r.nextLong() : r.nextLong() >>> r.nextInt(64));
    }
    CanonicalGenerator g = new CanonicalGenerator();
    g.writeStartArray();
    StringBuilder expected = new StringBuilder("[");
    for (long v : values) {
      g.writeUnsignedDecimalString(v);
      expected.append(expected.length() > 1 ? "," : "").append('"')
          .append(Long.toUnsignedString(v)).append('"');
    }
    g.writeEndArray();
    assertThat(new String(g.toByteArray(), StandardCharsets.UTF_8))
        .isEqualTo(expected.append(']').toString());
  }

  @Test
  void repeatedMemberSequencesReuseTheirOrderAndOthersAreSortedAgain() throws IOException {
    // Rows with the same literal names (the remembered order), then equal names in new String
    // instances and another order, then a duplicate: each checked against the reference.
    List<Object> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      rows.add(new Object[] {"z", i, "a", "x" + i, "m", null});
    }
    rows.add(new Object[] {new String("m"), 1, new String("z"), 2, new String("a"), 3});
    rows.add(new Object[] {"a", 1, "z", 2});
    assertThat(fast(rows)).isEqualTo(reference(rows));
    List<Object> dup = new ArrayList<>(rows);
    dup.add(new Object[] {"z", 1, "a", 2, new String("z"), 3});
    assertThatThrownBy(() -> fast(dup)).hasMessageContaining("Duplicate property: z");
  }

  @Test
  void duplicateNamesAndMalformedSequencesAreRefused() {
    assertThatThrownBy(() -> fast(new Object[] {"a", 1, "b", 2, "a", 3}))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("Duplicate property: a");
    assertThatThrownBy(() -> fast("x\ud800y")).isInstanceOf(IllegalArgumentException.class);
    CanonicalGenerator g = new CanonicalGenerator();
    g.writeStartObject();
    assertThatThrownBy(() -> g.writeString("no name")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(g::toByteArray).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new CanonicalGenerator().writeRaw("{}"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  // ---------------------------------------------------------------------------------------------
  // Evidence records

  private static void assertSameAsReference(EvidenceRecord r) {
    byte[] fast = EvidenceIds.canonicalBytes(r);
    byte[] ref = EvidenceIds.canonicalBytesByReference(r);
    assertThat(new String(fast, StandardCharsets.UTF_8))
        .as(r.artifact().path())
        .isEqualTo(new String(ref, StandardCharsets.UTF_8));
    assertThat(EvidenceIds.compute(r)).isEqualTo(EvidenceIds.PREFIX + EvidenceIds.sha256Hex(ref));
  }

  @Test
  void testRecordsMatchTheReference() {
    assertSameAsReference(TestRecords.small());
    assertSameAsReference(TestRecords.manyTensors(2_000));
    assertSameAsReference(
        TestRecords.small()
            .withAuthentication(new Authentication("ed25519", "sha256:00", "AA==")));
  }

  @Test
  void committedGgufFilesMatchTheReference() throws Exception {
    List<String> accepted = new ArrayList<>();
    for (String name :
        List.of(
            "real/ggml-vocab-llama-spm.gguf.gz",
            "real/ThreatFlux_gguf-test_model.gguf.gz",
            "real/ggml-vocab-falcon.v2-ff5a3f0.gguf.gz",
            "real/ollama_ollama-llama-2-tiny-random.gguf.gz",
            "gguf-py-writer/gguf-py-le-v3-nested-array.gguf",
            "gguf-py-writer/gguf-py-be-v3.gguf",
            "gguf-py-writer/gguf-py-le-v3-align64.gguf",
            "handcrafted/type-q4_k-ok.gguf",
            "handcrafted/type-q8_1-ok.gguf",
            "handcrafted/type-31-removed.gguf",
            "handcrafted/type-43-unknown.gguf",
            "handcrafted/arr-nested.gguf",
            "handcrafted/ok-v2-le.gguf")) {
      Path f = GgufTesting.resourceFile(tmp, name);
      try {
        assertSameAsReference(
            ModelInspector.standard().inspect(f.toAbsolutePath(), HashMode.HEADER));
        accepted.add(name);
      } catch (ReaException e) {
        if (e.partialEvidence() != null) {
          assertSameAsReference(e.partialEvidence());
        }
      }
    }
    assertThat(accepted)
        .contains(
            "real/ggml-vocab-llama-spm.gguf.gz",
            "gguf-py-writer/gguf-py-le-v3-nested-array.gguf",
            "handcrafted/type-q4_k-ok.gguf")
        .hasSizeGreaterThan(8);
  }

  @Test
  void sharedCorpusRecordsMatchTheReference() throws Exception {
    Optional<Path> corpus = GgufTesting.corpus();
    if (corpus.isEmpty()) {
      System.out.println("skipped: ../shared/corpus not found");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(corpus.isPresent());
    List<Path> files;
    try (Stream<Path> s = Files.walk(corpus.get())) {
      files =
          s.filter(Files::isRegularFile)
              .filter(p -> !p.getFileName().toString().matches(".*\\.(md|tsv|txt|json|py)$"))
              .sorted()
              .toList();
    }
    int inspected = 0;
    for (Path f : files) {
      EvidenceRecord r;
      try {
        r = ModelInspector.standard().inspect(f.toAbsolutePath(), HashMode.HEADER);
      } catch (ReaException e) {
        if (e.partialEvidence() != null) {
          assertSameAsReference(e.partialEvidence());
        }
        continue;
      }
      assertSameAsReference(r);
      inspected++;
    }
    // The corpus holds dozens of files REA accepts (real GGUF vocabularies, safetensors files).
    assertThat(inspected).isGreaterThan(20);
  }
}
