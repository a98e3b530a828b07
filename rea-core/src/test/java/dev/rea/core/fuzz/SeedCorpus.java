package dev.rea.core.fuzz;

import static dev.rea.core.internal.format.gguf.GgufBuilder.*;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.MemoryFileAccess;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the hand-built part of the fuzz seed corpus (docs/fuzzing.md): small GGUF and
 * safetensors files made with the test builders (valid files and one of each kind of edge case)
 * and Evidence JSON made by inspecting them. The real files and the findings are copied in by
 * hand. Run from the repository root:
 *
 * <pre>
 *   ./mvnw -q -pl rea-core test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 *   java -cp rea-core/target/test-classes:rea-core/target/classes:$(cat /tmp/cp.txt) \
 *     dev.rea.core.fuzz.SeedCorpus rea-core/src/test/resources/dev/rea/core/fuzz
 * </pre>
 */
public final class SeedCorpus {
  private SeedCorpus() {}

  /** The GGUF seeds, by file name. */
  static Map<String, byte[]> gguf() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("built-empty-v3", GgufBuilder.v3().bytes());
    m.put("built-empty-v2", GgufBuilder.v2().bytes());
    m.put("built-be-v3", GgufBuilder.v3().bigEndian().kv("general.name", str("be")).tensor("t", 0, 4).bytes());
    m.put(
        "built-every-scalar",
        GgufBuilder.v3()
            .kv("a.u8", u8(1)).kv("a.i8", i8(-1)).kv("a.u16", u16(2)).kv("a.i16", i16(-2))
            .kv("a.u32", u32(3)).kv("a.i32", i32(-3)).kv("a.f32", f32(1.5f)).kv("a.bool", bool(true))
            .kv("a.str", str("héllo")).kv("a.u64", u64(-1)).kv("a.i64", i64(-4)).kv("a.f64", f64(2.5))
            .bytes());
    m.put("built-arrays",
        GgufBuilder.v3().kv("s", stringArray("tok", 20)).kv("n", nested(3))
            .kv("e", array(UINT8)).kv("b", array(BOOL, bool(true), bool(false))).bytes());
    m.put("built-nested-32", GgufBuilder.v3().kv("n", nested(32)).bytes());
    m.put("built-nested-33", GgufBuilder.v3().kv("n", nested(33)).bytes());
    m.put("built-tensors-mixed",
        GgufBuilder.v3().alignment(64)
            .tensor("f32", 0, 8, 2).tensor("f16", 1, 32).tensor("q4_0", 2, 64)
            .tensor("q4_k", 12, 256).tensor("empty", 0, 0, 5)
            .tensor("scalar", 0).tensor("unknown", 4, 3).trailing(new byte[64]).bytes());
    m.put("built-offset-gap", GgufBuilder.v3().tensorAt("a", 0, 0, 8).tensorAt("b", 0, 64, 8).bytes());
    m.put("built-overlap", GgufBuilder.v3().tensorAt("a", 0, 0, 8).tensorAt("b", 0, 0, 8).bytes());
    m.put("built-huge-dims", GgufBuilder.v3().tensor("t", 0, 1L << 32, 1L << 32, 16).data(Data.NONE).bytes());
    m.put("built-dup-key", GgufBuilder.v3().kv("k", u8(1)).kv("k", u8(2)).bytes());
    m.put("built-bad-utf8-key", GgufBuilder.v3().kv(new byte[] {'k', (byte) 0xC0, (byte) 0x80}, u8(1)).bytes());
    m.put("built-bool-2", GgufBuilder.v3().kv("b", boolByte(2)).bytes());
    m.put("built-align-13", GgufBuilder.v3().kv("general.alignment", u32(13)).bytes());
    m.put("built-string-len-huge", GgufBuilder.v3().kv("s", strDeclared(-1, new byte[] {'a'})).bytes());
    m.put("built-array-count-huge", GgufBuilder.v3().kv("a", arrayDeclared(UINT64, -1, List.of(), new byte[0])).bytes());
    m.put("built-truncated-data", GgufBuilder.v3().tensor("t", 0, 16).truncate(1).bytes());
    m.put("built-trailing", GgufBuilder.v3().tensor("t", 0, 16).trailing(new byte[] {1, 2, 3}).bytes());
    m.put("built-ndims-5", GgufBuilder.v3().tensor("t", 0, 1, 1, 1, 1, 1).bytes());
    m.put("built-name-65", GgufBuilder.v3().tensor("x".repeat(65), 0, 4).bytes());
    m.put("built-removed-type-31", GgufBuilder.v3().tensor("t", 31, 32).bytes());
    m.put("built-version-1", GgufBuilder.v3().version(1).bytes());
    m.put("built-be-v2", GgufBuilder.v2().order(ByteOrder.BIG_ENDIAN).bytes());
    return m;
  }

  /** The safetensors seeds, by file name. */
  static Map<String, byte[]> safetensors() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("built-empty", SafetensorsBuilder.file("{}", 0));
    m.put("built-padded", SafetensorsBuilder.file("  {}\t\r\n", 0));
    m.put("built-typical",
        SafetensorsBuilder.builder().metadata("format", "pt").tensor("a.weight", "F32", 2, 3)
            .tensor("b", "BF16", 4).tensor("c", "I8", 0).tensor("s", "F64").padTo8().build());
    m.put("built-every-dtype", everyDtype());
    m.put("built-unknown-dtype", SafetensorsBuilder.builder().tensorBytes("x", "F128", 16, 1).build());
    m.put("built-metadata-null", SafetensorsBuilder.builder().metadataNull().tensor("a", "U8", 3).build());
    m.put("built-gap", SafetensorsBuilder.builder().tensorAt("a", "U8", 0, 2, 2).tensorAt("b", "U8", 3, 5, 2).build());
    m.put("built-overlap", SafetensorsBuilder.builder().tensorAt("a", "U8", 0, 4, 4).tensorAt("b", "U8", 2, 6, 4).build());
    m.put("built-trailing", SafetensorsBuilder.builder().tensor("a", "U8", 4).extraData(3).build());
    m.put("built-declared-long", SafetensorsBuilder.builder().tensor("a", "U8", 4).declaredLengthDelta(1000).build());
    m.put("built-dup-name", SafetensorsBuilder.file(
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},\"\\u0061\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", 1));
    m.put("built-nested-33", SafetensorsBuilder.file("{\"x\":" + "[".repeat(32) + "]".repeat(32) + "}", 0));
    m.put("built-shape-overflow", SafetensorsBuilder.file(
        "{\"a\":{\"dtype\":\"I32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,0]}}", 0));
    m.put("built-f4-odd", SafetensorsBuilder.file("{\"a\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}}", 2));
    m.put("built-bom", SafetensorsBuilder.file("\uFEFF{}", 0));
    m.put("built-bad-utf8", SafetensorsBuilder.file(new byte[] {'{', '"', (byte) 0xFF, '"', ':', '1', '}'}, new byte[0]));
    m.put("built-metadata-number", SafetensorsBuilder.file("{\"__metadata__\":{\"k\":1}}", 0));
    m.put("built-escapes", SafetensorsBuilder.file(
        "{\"__metadata__\":{\"k\\n\\u00e9\\ud83d\\ude00\":\"v\\\"\\\\\"},\"t\\u0000\":{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1]}}", 1));
    m.put("built-length-only", SafetensorsBuilder.u64le(60));
    return m;
  }

  private static byte[] everyDtype() {
    SafetensorsBuilder.Builder b = SafetensorsBuilder.builder();
    String[] dtypes = {"BOOL", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "I16", "U16", "F16", "BF16",
        "I32", "U32", "F32", "C64", "F64", "I64", "U64", "F4", "F6_E2M3", "F6_E3M2"};
    for (String d : dtypes) {
      b.tensor("t." + d.toLowerCase(), d, 4);
    }
    return b.build();
  }

  /** Evidence JSON seeds: records of some valid seeds, a bundle, and a partial record. */
  static Map<String, byte[]> evidence() throws ReaException {
    Map<String, byte[]> m = new LinkedHashMap<>();
    List<EvidenceRecord> all = new ArrayList<>();
    Map<String, byte[]> models = new LinkedHashMap<>();
    models.put("gguf-every-scalar", gguf().get("built-every-scalar"));
    models.put("gguf-arrays", gguf().get("built-arrays"));
    models.put("gguf-tensors-mixed", gguf().get("built-tensors-mixed"));
    models.put("gguf-be-v3", gguf().get("built-be-v3"));
    models.put("st-typical", safetensors().get("built-typical"));
    models.put("st-unknown-dtype", safetensors().get("built-unknown-dtype"));
    models.put("st-escapes", safetensors().get("built-escapes"));
    for (Map.Entry<String, byte[]> e : models.entrySet()) {
      EvidenceRecord r =
          ModelInspector.withAccess(Limits.defaults(), new MemoryFileAccess(e.getValue()))
              .inspect(Path.of("/seeds/" + e.getKey()), HashMode.FULL);
      all.add(r);
      m.put("record-" + e.getKey() + ".json", EvidenceJson.recordBytes(r, true));
    }
    m.put("bundle-two.json", EvidenceJson.bundleBytes(all.subList(0, 2)));
    m.put("not-json.json", "{\"schema\":\"rea.evidence.v1\",".getBytes(StandardCharsets.UTF_8));
    return m;
  }

  /**
   * @param args the fuzz resource directory ({@code .../dev/rea/core/fuzz})
   */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    write(root.resolve("GgufFuzzTestInputs/readGguf"), gguf(), ".gguf");
    write(root.resolve("SafetensorsFuzzTestInputs/readSafetensors"), safetensors(), ".safetensors");
    write(root.resolve("EvidenceImportFuzzTestInputs/importEvidence"), evidence(), "");
  }

  private static void write(Path dir, Map<String, byte[]> files, String ext) throws IOException {
    Files.createDirectories(dir);
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      Files.write(dir.resolve(e.getKey() + ext), e.getValue());
    }
  }
}
