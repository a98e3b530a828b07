package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.EvidenceFiles;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.testing.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvidenceLoaderTest {
  @TempDir Path tmp;

  @Test
  void selectsTheRecordOfAFileOrBundle() throws Exception {
    KeyRing ring = KeyRing.open(tmp.resolve("home"));
    EvidenceSigner signer = new EvidenceSigner(ring);
    EvidenceLoader loader = new EvidenceLoader(EvidenceVerifier.standard(ring));
    EvidenceRecord a = signer.sign(TestRecords.small());
    EvidenceRecord b = signer.sign(TestRecords.manyTensors(3));

    Path one = tmp.resolve("one.json");
    EvidenceFiles.writeAtomically(one, EvidenceJson.bundleBytes(List.of(a)));
    EvidenceLoader.Loaded l1 = loader.loadFile(one);
    assertThat(l1.bundle()).isTrue();
    assertThat(EvidenceLoader.select(l1, null).record()).isEqualTo(a);
    assertThat(EvidenceLoader.select(l1, a.evidenceId()).record()).isEqualTo(a);

    Path two = tmp.resolve("two.json");
    EvidenceFiles.writeAtomically(two, EvidenceJson.bundleBytes(List.of(a, b)));
    EvidenceLoader.Loaded l2 = loader.loadFile(two);
    assertThatThrownBy(() -> EvidenceLoader.select(l2, null))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.BAD_ARGUMENT);
          assertThat(e.getMessage()).contains("holds 2 records").contains(a.evidenceId())
              .contains(b.evidenceId());
        });
    assertThat(EvidenceLoader.select(l2, b.evidenceId()).record()).isEqualTo(b);
    assertThatThrownBy(() -> EvidenceLoader.select(l2, "sha256:" + "1".repeat(64)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.UNKNOWN_EVIDENCE));

    assertThatThrownBy(() -> loader.loadFile(tmp.resolve("missing.json")))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.NOT_FOUND));
    assertThatThrownBy(() -> loader.loadFile(tmp))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE));
    Path garbage = Files.writeString(tmp.resolve("g.json"), "{\"schema\":\"x\"}");
    assertThatThrownBy(() -> loader.loadFile(garbage))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.path()).isEqualTo(garbage.toString());
        });
  }

  @Test
  void atomicWriteReplacesWholeFilesAndLeavesNoTemporaries() throws Exception {
    Path f = tmp.resolve("e.json");
    EvidenceFiles.writeAtomically(f, "first".getBytes());
    EvidenceFiles.writeAtomically(f, "second, longer".getBytes());
    assertThat(Files.readString(f)).isEqualTo("second, longer");
    try (var s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("e.json");
    }
    assertThatThrownBy(() -> EvidenceFiles.writeAtomically(tmp.resolve("no/such/dir/e.json"), new byte[1]))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
          assertThat(e.getMessage()).contains("no/such/dir/e.json");
        });
    // A failed publish (the target is a non-empty directory) leaves no temporary file behind.
    Path dir = Files.createDirectories(tmp.resolve("d.json"));
    Files.writeString(dir.resolve("x"), "keep");
    assertThatThrownBy(() -> EvidenceFiles.writeAtomically(dir, "new".getBytes()))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR));
    assertThat(Files.readString(dir.resolve("x"))).isEqualTo("keep");
    try (var s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("e.json", "d.json");
    }
    assertThat(EvidenceFiles.read(f, 100)).isEqualTo("second, longer".getBytes());
    assertThatThrownBy(() -> EvidenceFiles.read(f, 5))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.diagnostics()).containsEntry("limit_bytes", "5");
        });
  }

  @Test
  void aModelFileGivenAsEvidenceKeepsTheErrorsDetailsAndSaysWhatItIs() throws Exception {
    KeyRing ring = KeyRing.open(tmp.resolve("home"));
    EvidenceLoader loader = new EvidenceLoader(EvidenceVerifier.standard(ring));
    Path model =
        dev.rea.core.internal.format.gguf.GgufTesting.resourceFile(
            tmp, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    // The error without the hint: the same bytes given to the loader directly.
    ReaException plain = null;
    try {
      loader.load(Files.readAllBytes(model));
    } catch (ReaException e) {
      plain = e;
    }
    assertThat(plain).isNotNull();
    ReaException original = plain;
    assertThatThrownBy(() -> loader.loadFile(model))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(original.constraint());
          assertThat(e.getMessage()).contains("this is a GGUF model file, not saved Evidence");
          assertThat(e.field()).isEqualTo(original.field());
          assertThat(e.offset()).isEqualTo(original.offset());
          assertThat(e.diagnostics()).containsAllEntriesOf(original.diagnostics());
          assertThat(e.diagnostics()).containsEntry("detected", "gguf");
          assertThat(e.path()).isEqualTo(model.toString());
        });
  }

  /** The error object a failed --json run printed, saved and given as Evidence, is named. */
  @Test
  void anErrorObjectGivenAsEvidenceSaysWhatItIs() throws Exception {
    KeyRing ring = KeyRing.open(tmp.resolve("home"));
    EvidenceLoader loader = new EvidenceLoader(EvidenceVerifier.standard(ring));
    Path error =
        Files.writeString(
            tmp.resolve("cut.json"),
            "{\"error\":{\"code\":\"target_unavailable\",\"category\":\"unsupported_target\","
                + "\"constraint\":\"file_format_rejected\",\"message\":\"cut\",\"details\":{}}}\n");
    assertThatThrownBy(() -> loader.loadFile(error))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(dev.rea.core.error.Constraint.EVIDENCE_REJECTED);
          assertThat(e.getMessage())
              .startsWith("this is the error object of a failed run, not saved Evidence");
          assertThat(e.diagnostics()).containsEntry("detected", "error");
        });
  }

  /**
   * JSON whose ninth byte opens an array or object is not called a safetensors file when the
   * length its first eight bytes would declare cannot fit it; a real safetensors file still is.
   */
  @Test
  void jsonThatOnlyLooksLikeASafetensorsLengthIsNotNamedAModel() throws Exception {
    KeyRing ring = KeyRing.open(tmp.resolve("home"));
    EvidenceLoader loader = new EvidenceLoader(EvidenceVerifier.standard(ring));
    Path brackets = Files.writeString(tmp.resolve("b.json"), "[".repeat(200) + "]".repeat(200));
    Path nested = Files.writeString(tmp.resolve("n.json"), "{\"a\":" + "[".repeat(80) + "]".repeat(80) + "}");
    for (Path p : List.of(brackets, nested)) {
      assertThatThrownBy(() -> loader.loadFile(p))
          .isInstanceOfSatisfying(ReaException.class, e -> {
            assertThat(e.getMessage()).as(p.toString()).doesNotContain("model file");
            assertThat(e.diagnostics()).doesNotContainKey("detected");
          });
    }
    byte[] json = "{\"t\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}".getBytes(StandardCharsets.UTF_8);
    byte[] st = new byte[8 + json.length + 1];
    st[0] = (byte) json.length;
    System.arraycopy(json, 0, st, 8, json.length);
    Path model = Files.write(tmp.resolve("m.safetensors"), st);
    assertThatThrownBy(() -> loader.loadFile(model))
        .isInstanceOfSatisfying(ReaException.class, e ->
            assertThat(e.getMessage()).contains("this is a safetensors model file, not saved Evidence"));
  }
}
