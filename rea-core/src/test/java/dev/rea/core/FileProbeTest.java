package dev.rea.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.options.InspectOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileProbe#candidateFormat()} and {@link FileProbe#refusal()} decide, from a file's first
 * bytes, what {@code rea scan} inspects and what it skips (CONTRACT section 10), in agreement
 * with what an inspection says of the same file; {@link FileIdentity#observed} writes an
 * identity as an inspection records it.
 */
class FileProbeTest {
  @TempDir Path dir;

  private static final String JSON =
      "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";

  @Test
  void aTruncatedSafetensorsFileIsACandidateThatTheInspectionRejects() throws Exception {
    byte[] whole = SafetensorsBuilder.file(JSON, 8);
    // Cut inside the JSON: the declared length now runs past the end of the file.
    Path cut = Files.write(dir.resolve("cut.bin"), Arrays.copyOf(whole, 20));
    FileProbe probe = FileProbe.of(cut);
    assertThat(probe.modelFormat()).isEmpty();
    assertThat(probe.candidateFormat()).contains("safetensors");
    assertThat(probe.refusal()).isEmpty();
    Inspection result = Rea.standard().inspect(cut, InspectOptions.defaults());
    assertThat(result.failure().orElseThrow().constraint())
        .isEqualTo(Constraint.FILE_FORMAT_REJECTED);
  }

  @Test
  void textWhoseNinthByteIsABraceIsNotACandidate() throws Exception {
    Path text = Files.writeString(dir.resolve("notes.txt"), "abcdefgh{\"not\":\"a model\"}");
    FileProbe probe = FileProbe.of(text);
    assertThat(probe.candidateFormat()).isEmpty();
    ReaException why = probe.refusal().orElseThrow();
    assertThat(why.constraint()).isEqualTo(Constraint.UNSUPPORTED_FORMAT);
    assertThat(why.field()).isEqualTo("magic");
    assertThat(why.getMessage()).contains(Long.toUnsignedString(
        java.nio.ByteBuffer.wrap("abcdefgh".getBytes(StandardCharsets.US_ASCII))
            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .getLong()));
  }

  @Test
  void aWholeModelIsACandidateAndAPickleIsRefusedAsTheInspectionRefusesIt() throws Exception {
    Path model = Files.write(dir.resolve("m.bin"), SafetensorsBuilder.file(JSON, 8));
    assertThat(FileProbe.of(model).candidateFormat()).contains("safetensors");
    assertThat(FileProbe.of(model).refusal()).isEmpty();

    Path pickle = Files.write(dir.resolve("p.bin"), new byte[] {(byte) 0x80, 2, ']', 'q', 0, '.'});
    ReaException why = FileProbe.of(pickle).refusal().orElseThrow();
    ReaException inspected =
        Rea.standard().inspect(pickle, InspectOptions.defaults()).failure().orElseThrow();
    assertThat(why.constraint()).isEqualTo(inspected.constraint());
    assertThat(why.getMessage()).isEqualTo(inspected.getMessage());
    assertThat(why.diagnostics()).isEqualTo(inspected.diagnostics());
  }

  @Test
  void anObservedIdentityEqualsTheOneAnInspectionRecords() throws Exception {
    Path model = Files.write(dir.resolve("m.safetensors"), SafetensorsBuilder.file(JSON, 8));
    Files.setLastModifiedTime(model, FileTime.from(Instant.parse("2024-05-06T07:08:09.123456789Z")));
    FileIdentity recorded =
        Rea.standard().inspect(model, InspectOptions.defaults()).orThrow().artifact().identity();
    java.util.Map<String, Object> a = Files.readAttributes(model, "unix:dev,ino");
    FileIdentity observed =
        FileIdentity.observed(
            (Long) a.get("dev"),
            (Long) a.get("ino"),
            Files.size(model),
            Files.getLastModifiedTime(model).toInstant());
    assertThat(observed).isEqualTo(recorded.withVerified(false));
    assertThat(observed.modified()).isEqualTo("2024-05-06T07:08:09.123456789Z");
    assertThat(FileIdentity.observed(null, -1L, 0, Instant.EPOCH).inode())
        .isEqualTo("18446744073709551615");
  }

  @Test
  void savedEvidenceRewrittenByAnotherToolIsStillTakenForEvidence() throws Exception {
    String[] evidence = {
      "{\"schema\":\"rea.bundle.v1\",\"records\":[]}",
      "{\"records\":[],\"schema\":\"rea.bundle.v1\"}",
      "{\"\\u0073chema\":\"rea.bundle.v1\",\"records\":[]}",
      "\uFEFF{\"schema\":\"rea.bundle.v1\",\"records\":[]}",
      "  {\n  \"signatures\": [],\n  \"payloadType\": \"application/vnd.in-toto+json\"}"
    };
    for (String e : evidence) {
      Path p = Files.writeString(dir.resolve("e.json"), e);
      assertThat(FileProbe.of(p).savedEvidence()).as(e).isTrue();
    }
    // A model configuration is JSON but not Evidence; a safetensors file may start with "{".
    Path config = Files.writeString(dir.resolve("config.json"),
        "{\"architectures\":[\"LlamaForCausalLM\"],\"hidden_size\":4096}");
    assertThat(FileProbe.of(config).savedEvidence()).isFalse();
    String header = "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
    header = header + " ".repeat(0x7B - header.length()); // a header length of 0x7B: "{" first
    byte[] st = SafetensorsBuilder.file(header, 8);
    assertThat(st[0]).isEqualTo((byte) '{');
    Path model = Files.write(dir.resolve("m.safetensors"), st);
    assertThat(FileProbe.of(model).savedEvidence()).isFalse();
    assertThat(FileProbe.of(model).modelFormat()).contains("safetensors");
  }
}
