package dev.rea.core.internal.detect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Detection by content (CONTRACT section 8, "Both"): the two model formats whatever the file is
 * called, and every recognised non-model refused as {@code unsupported_format} with what it is
 * ({@code diagnostics.detected}) and what to do (the message).
 */
class FormatDetectorTest {
  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** An 8-byte little-endian length, then the text. */
  private static byte[] safetensors(String json) {
    byte[] body = ascii(json);
    byte[] prefix = new byte[8];
    long n = body.length;
    for (int i = 0; i < 8; i++) {
      prefix[i] = (byte) (n >>> (8 * i));
    }
    return concat(prefix, body);
  }

  static Stream<Arguments> models() {
    return Stream.of(
        Arguments.of("GGUF v3 LE", ascii("GGUF\3\0\0\0"), DetectedFormat.GGUF),
        Arguments.of("GGUF v3 BE (the magic keeps its bytes)", ascii("GGUF\0\0\0\3"), DetectedFormat.GGUF),
        Arguments.of("GGUF v1 (detected, then refused by version)", ascii("GGUF\1\0\0\0"), DetectedFormat.GGUF),
        Arguments.of("safetensors", safetensors("{\"__metadata__\":null}"), DetectedFormat.SAFETENSORS),
        Arguments.of("safetensors with leading JSON whitespace", safetensors(" \t\r\n{}"), DetectedFormat.SAFETENSORS),
        Arguments.of(
            "safetensors with a UTF-8 BOM (the reader names it)",
            safetensors("\u00EF\u00BB\u00BF{}"),
            DetectedFormat.SAFETENSORS),
        Arguments.of(
            "safetensors with a vertical tab before the object (the reader names it)",
            safetensors("\u000B{}"),
            DetectedFormat.SAFETENSORS),
        Arguments.of(
            "safetensors whose top level is an array (the reader rejects it)",
            safetensors("[]"),
            DetectedFormat.SAFETENSORS),
        Arguments.of(
            "safetensors declaring more than the file holds (the reader rejects it)",
            concat(new byte[] {(byte) 0xE8, 3, 0, 0, 0, 0, 0, 0}, ascii("{\"a\":1}")),
            DetectedFormat.SAFETENSORS));
  }

  /** Detection is given the first bytes it needs and never the bytes past a model's header. */
  @org.junit.jupiter.api.Test
  void probeLengthStopsAtTheHeader() {
    byte[] gguf = {'G', 'G', 'U', 'F', 3, 0, 0, 0};
    assertThat(FormatDetector.probeLength(gguf, 8, 1_000_000)).isEqualTo(8);
    byte[] st =
        java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(100).array();
    assertThat(FormatDetector.probeLength(st, 8, 1_000)).isEqualTo(108);
    byte[] bigJson =
        java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(5_000).array();
    assertThat(FormatDetector.probeLength(bigJson, 8, 1_000_000)).isEqualTo(FormatDetector.PROBE_BYTES);
    // A length past the file, or another kind of file: the whole probe, never past the file.
    assertThat(FormatDetector.probeLength(bigJson, 8, 1_000)).isEqualTo(FormatDetector.PROBE_BYTES);
    assertThat(FormatDetector.probeLength(ascii("PK\u0003\u0004abcd"), 8, 300)).isEqualTo(300);
    assertThat(FormatDetector.probeLength(new byte[] {'G', 'G'}, 2, 2)).isEqualTo(2);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("models")
  void modelsAreDetectedByTheirBytes(String what, byte[] head, DetectedFormat expected)
      throws ReaException {
    assertThat(FormatDetector.detect(head, head.length, head.length)).isEqualTo(expected);
  }

  static Stream<Arguments> nonModels() {
    return Stream.of(
        Arguments.of("empty file", new byte[0], "empty", "empty"),
        Arguments.of("PyTorch ZIP", ascii("PK\3\4\24\0\0\0\10\0"), "zip", "PyTorch"),
        Arguments.of("empty ZIP", ascii("PK\5\6\0\0\0\0"), "zip", "convert it"),
        Arguments.of("pickle protocol 2", new byte[] {(byte) 0x80, 2, 'c', 'c'}, "pickle", "never unpickles"),
        Arguments.of("pickle protocol 5", new byte[] {(byte) 0x80, 5, (byte) 0x95, 0}, "pickle", "protocol 5"),
        Arguments.of("legacy ggml (LE)", ascii("lmgg\1\0\0\0"), "ggml_legacy", "'ggml'"),
        Arguments.of("legacy ggjt (LE)", ascii("tjgg\3\0\0\0"), "ggml_legacy", "'ggjt'"),
        Arguments.of("legacy ggmf (LE)", ascii("fmgg\1\0\0\0"), "ggml_legacy", "'ggmf'"),
        Arguments.of("legacy ggla (LE)", ascii("algg\1\0\0\0"), "ggml_legacy", "conversion"),
        Arguments.of("legacy ggsn (LE)", ascii("nsgg\1\0\0\0"), "ggml_legacy", "'ggsn'"),
        Arguments.of(
            "Git LFS pointer",
            ascii("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 12\n"),
            "git_lfs_pointer",
            "git lfs pull"),
        Arguments.of("HTML page", ascii("<!DOCTYPE html><html><body>Sign in"), "html", "download the model again"),
        Arguments.of("HTML after a BOM and blank lines", concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, ascii("\n\n<html lang=en>")), "html", "HTML"),
        Arguments.of("a sharded checkpoint index", ascii("{\n  \"metadata\": {\"total_size\": 1}, \"weight_map\": {}}"), "json", "index.json"),
        Arguments.of(
            "a config.json: no hint about indexes",
            ascii("{\"architectures\": [\"LlamaForCausalLM\"]}"),
            "json",
            "unsupported format: the file is JSON text, not a model"),
        Arguments.of(
            "an Evidence bundle REA saved",
            ascii("{\"schema\":\"rea.bundle.v1\",\"records\":[{\"schema\":\"rea.evidence.v1\""),
            "rea_evidence",
            "the file is Evidence that REA saved (a rea.bundle.v1 bundle), not a model"),
        Arguments.of(
            "an Evidence record REA saved",
            ascii("{\"schema\":\"rea.evidence.v1\",\"evidence_id\":\"sha256:00\""),
            "rea_evidence",
            "the file is Evidence that REA saved (a rea.evidence.v1 record), not a model"),
        Arguments.of(
            "an Evidence bundle reformatted by a JSON tool",
            ascii("{\n  \"schema\" : \"rea.bundle.v1\",\n  \"records\": ["),
            "rea_evidence",
            "rea.bundle.v1 bundle"),
        Arguments.of(
            "JSON with another schema",
            ascii("{\"schema\":\"rea.bundle.v2\"}"),
            "json",
            "JSON text, not a model"),
        Arguments.of("byte-reversed GGUF magic", ascii("FUGG\3\0\0\0"), "gguf_reversed_magic", "FUGG"),
        Arguments.of("plain text", ascii("hello, world\n"), "unknown", "not GGUF"),
        Arguments.of("three bytes", ascii("GGU"), "unknown", "not GGUF"),
        Arguments.of(
            "a zero length before JSON-looking bytes",
            concat(new byte[8], ascii("{}")),
            "unknown",
            "not GGUF"),
        Arguments.of(
            "NUL bytes before a brace",
            concat(new byte[] {2, 0, 0, 0, 0, 0, 0, 0}, new byte[] {0, '{'}),
            "unknown",
            "not GGUF"));
  }

  /** The index hint is for an index: a model directory's other JSON files do not get it. */
  @Test
  void onlyJsonNamingAWeightMapGetsTheIndexHint() {
    byte[] config = ascii("{\"architectures\": [\"LlamaForCausalLM\"]}");
    ReaException e =
        catchThrowableOfType(
            ReaException.class, () -> FormatDetector.detect(config, config.length, config.length));
    assertThat(e.getMessage()).isEqualTo("unsupported format: the file is JSON text, not a model");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nonModels")
  void nonModelsAreUnsupportedFormatsWithAHint(String what, byte[] head, String kind, String hint) {
    ReaException e =
        catchThrowableOfType(
            ReaException.class, () -> FormatDetector.detect(head, head.length, head.length));
    assertThat(e).as(what).isNotNull();
    assertThat(e.constraint()).isEqualTo(Constraint.UNSUPPORTED_FORMAT);
    assertThat(e.code().exitStatus()).isEqualTo(3);
    assertThat(e.diagnostics()).containsEntry("detected", kind);
    assertThat(e.getMessage()).contains(hint);
    assertThat(e.field()).isEqualTo("magic");
    assertThat(e.offset()).isEqualTo(0L);
    // Nothing of the content is echoed back: an MCP client may name any file the user can read.
    String hex = java.util.HexFormat.of().formatHex(head, 0, Math.min(head.length, 4));
    assertThat(e.diagnostics().keySet()).isSubsetOf("detected", "file_size", "schema");
    if (!hex.isEmpty()) {
      assertThat(e.diagnostics().values().toString()).doesNotContain(hex);
    }
  }

  @org.junit.jupiter.api.Test
  void aProbeReadsAtMostTheProbeBytesAndNamesModelsOnly(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path gguf = dir.resolve("m.gguf");
    byte[] big = new byte[FormatDetector.PROBE_BYTES + 100];
    big[0] = 'G';
    big[1] = 'G';
    big[2] = 'U';
    big[3] = 'F';
    java.nio.file.Files.write(gguf, big);
    FormatDetector.Probe p = FormatDetector.probe(gguf);
    assertThat(p.length()).isEqualTo(FormatDetector.PROBE_BYTES);
    assertThat(p.size()).isEqualTo(big.length);
    assertThat(p.model()).isEqualTo(DetectedFormat.GGUF);
    assertThat(p.model().displayName()).isEqualTo("GGUF");

    java.nio.file.Path text = java.nio.file.Files.writeString(dir.resolve("t.txt"), "  {\"kind\":1}\u00e9");
    FormatDetector.Probe t = FormatDetector.probe(text);
    assertThat(t.length()).isEqualTo(14);
    assertThat(t.model()).isNull();
    // One character per byte: the two UTF-8 bytes of U+00E9 are two characters.
    assertThat(t.text()).isEqualTo("  {\"kind\":1}\u00c3\u00a9");
    assertThat(DetectedFormat.SAFETENSORS.displayName()).isEqualTo("safetensors");
  }
}
