package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.io.PipelinedDigest;
import dev.rea.core.testing.ChildJvm;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every setting of {@code -Drea.digest.thread} gives the same digests: the default (header and
 * rest of the file hashed on the digest thread), {@code rest} (the header on the reading thread,
 * the rest on the digest thread) and {@code false} (everything on the reading thread). The file's
 * header spans several {@link PipelinedDigest#CHUNK_BYTES} chunks and does not end on a chunk
 * boundary, so the threaded paths hand over full and partial chunks; the expected values are the
 * JDK's SHA-256 of the file's bytes, computed here. Each setting runs in a JVM of its own ({@link
 * DigestModeChild}): {@code ModelInspector} reads the setting when it loads.
 */
class DigestModesTest {
  @TempDir static Path dir;
  private static Path file;
  private static String headerSha;
  private static String fileSha;

  @BeforeAll
  static void writeFile() throws Exception {
    // A safetensors file: a metadata string pads the JSON to about 2.5 chunks; 3 MiB of data.
    int dataBytes = 3 << 20;
    String pad = "p".repeat(PipelinedDigest.CHUNK_BYTES * 5 / 2 + 12_345);
    byte[] json =
        ("{\"__metadata__\":{\"pad\":\""
                + pad
                + "\"},\"t\":{\"dtype\":\"U8\",\"shape\":["
                + dataBytes
                + "],\"data_offsets\":[0,"
                + dataBytes
                + "]}}")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] prefix =
        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(json.length).array();
    byte[] data = new byte[dataBytes];
    new SplittableRandom(8785).nextBytes(data);
    file = dir.resolve("digest-modes.safetensors");
    MessageDigest header = MessageDigest.getInstance("SHA-256");
    MessageDigest whole = MessageDigest.getInstance("SHA-256");
    try (OutputStream out = Files.newOutputStream(file)) {
      for (byte[] part : List.of(prefix, json, data)) {
        out.write(part);
        whole.update(part);
        if (part != data) {
          header.update(part);
        }
      }
    }
    headerSha = HexFormat.of().formatHex(header.digest());
    fileSha = HexFormat.of().formatHex(whole.digest());
    assertThat(8L + json.length).isGreaterThan(2L * PipelinedDigest.CHUNK_BYTES);
    assertThat((8L + json.length) % PipelinedDigest.CHUNK_BYTES).isNotZero();
  }

  @ParameterizedTest(name = "rea.digest.thread={0}, hash {1}")
  @CsvSource({
    "default, header",
    "default, full",
    "rest, header",
    "rest, full",
    "false, header",
    "false, full"
  })
  void everySettingGivesTheJdksDigests(String setting, String hash) throws Exception {
    List<String> options = new ArrayList<>(List.of("-Xmx256m"));
    if (!setting.equals("default")) {
      options.add("-Drea.digest.thread=" + setting);
    }
    ChildJvm.Result run = ChildJvm.run(options, DigestModeChild.class, 120, file.toString(), hash);
    assertThat(run.exit()).as(run.output()).isZero();
    String expectedFull = hash.equals("full") ? fileSha : "null";
    assertThat(run.output())
        .isEqualTo(
            "header_sha256=" + headerSha + " sha256=" + expectedFull + " status=complete");
  }
}
