package dev.rea.core.internal.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.TestRecords;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class EvidenceImportTest {
  static final EvidenceImport IMPORT = EvidenceImport.standard();
  static final EvidenceRecord SMALL =
      TestRecords.small().withAuthentication(new Authentication("ed25519", "sha256:" + "0".repeat(64),
          "A".repeat(86) + "=="));
  static final String TEXT = new String(EvidenceJson.recordBytes(SMALL, true), StandardCharsets.UTF_8);

  static ReaException reject(String json, @Nullable String field, String messagePart) {
    return reject(json.getBytes(StandardCharsets.UTF_8), field, messagePart);
  }

  static ReaException reject(byte[] json, @Nullable String field, String messagePart) {
    try {
      IMPORT.read(json);
    } catch (ReaException e) {
      assertThat(e.constraint()).as(e.getMessage()).isEqualTo(Constraint.EVIDENCE_REJECTED);
      assertThat(e.field()).as(e.getMessage()).isEqualTo(field);
      assertThat(e.getMessage()).contains(messagePart);
      return e;
    }
    throw new AssertionError("accepted: " + new String(json, StandardCharsets.UTF_8));
  }

  static String replace(String from, String to) {
    assertThat(TEXT).contains(from);
    String out = TEXT.replaceFirst(java.util.regex.Pattern.quote(from),
        java.util.regex.Matcher.quoteReplacement(to));
    return out;
  }

  @Test
  void readsWhatTheWriterWrites() throws ReaException {
    EvidenceImport.Imported in = IMPORT.read(TEXT.getBytes(StandardCharsets.UTF_8));
    assertThat(in.bundle()).isFalse();
    assertThat(in.records()).hasSize(1);
    assertThat(in.records().get(0).record()).isEqualTo(SMALL);
    assertThat(in.records().get(0).offset()).isZero();
    String free = new String(in.records().get(0).identityFreeJson(), StandardCharsets.UTF_8);
    assertThat(free).isEqualTo(new String(EvidenceJson.recordBytes(SMALL, false), StandardCharsets.UTF_8));
  }

  @Test
  void syntaxAndBoundsAreCheckedBeforeObjectsAreBuilt() {
    reject(replace("\"status\":\"complete\",", "\"status\":\"complete\",\"status\":\"complete\","),
        null, "Duplicate");
    reject(TEXT + " {}", null, "content follows");
    reject("[1]", null, "top-level value must be an object");
    reject("", null, "empty");
    assertThat(reject(TEXT.substring(0, TEXT.length() - 1), null, "malformed JSON").getMessage())
        .contains("malformed JSON: Unexpected end-of-input: expected close marker for Object")
        .doesNotContain("[Source");
    byte[] bom = ("\uFEFF" + TEXT).getBytes(StandardCharsets.UTF_8);
    reject(bom, null, "byte order mark");
    byte[] nul = TEXT.getBytes(StandardCharsets.UTF_8).clone();
    nul[10] = 0;
    ReaException e = reject(nul, null, "NUL");
    assertThat(e.offset()).isEqualTo(10L);
    byte[] overlong = replace("Tiny", "Ti\u0001y").getBytes(StandardCharsets.UTF_8);
    int at = new String(overlong, StandardCharsets.UTF_8).indexOf("Ti\u0001y") + 2;
    overlong[at] = (byte) 0xC0; // C0 is never valid UTF-8
    reject(overlong, null, "not well-formed UTF-8");
    String deep = "{\"schema\":\"rea.evidence.v1\",\"x\":" + "[".repeat(100) + "]".repeat(100) + "}";
    reject(deep, null, "nesting depth");
    EvidenceImport tiny = new EvidenceImport(Limits.defaults(), 1000);
    assertThatThrownBy(() -> tiny.read(TEXT.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(ReaException.class, x -> {
          assertThat(x.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(x.getMessage()).contains("exceed the limit of 1000 bytes");
          assertThat(x.diagnostics()).containsEntry("limit_bytes", "1000");
        });
  }

  @Test
  void propertiesAreStrict() {
    reject(replace("{\"schema\"", "{\"extra\":1,\"schema\""), "extra", "unknown property");
    reject(replace("\"storage_validation\":\"consistent\"}", "\"storage_validation\":\"consistent\",\"bogus\":true}"),
        "tensors[0].bogus", "unknown property");
    reject(replace("\"operation\":\"inspect_model_artifact\",", ""), "operation", "required property");
    reject(replace("\"byte_length\":null,", ""), "tensors[1].byte_length", "required property");
    reject(replace("\"schema\":\"rea.evidence.v1\"", "\"schema\":\"rea.evidence.v2\""), "schema",
        "schema must be");
    reject(replace("\"alignment\":32,", "\"alignment\":32,\"json_length\":\"1\","),
        "format_facts.json_length", "unknown property");
  }

  @Test
  void valuesHaveTheirContractTypes() {
    reject(replace("\"file_size\":\"1000000\"", "\"file_size\":1000000"), "artifact.file_size",
        "expected a string");
    reject(replace("\"parameter_count\":\"32\"", "\"parameter_count\":\"032\""),
        "tensors[0].parameter_count", "unsigned decimal");
    reject(replace("\"parameter_count\":\"32\"", "\"parameter_count\":\"+32\""),
        "tensors[0].parameter_count", "unsigned decimal");
    reject(replace("\"value\":\"18446744073709551615\"", "\"value\":\"18446744073709551616\""),
        "metadata[5].value", "UINT64");
    reject(replace("\"value\":255", "\"value\":256"), "metadata[3].value", "[0, 255]");
    reject(replace("\"value\":255", "\"value\":255.0"), "metadata[3].value", "[0, 255]");
    reject(replace("\"value\":1.0E-5", "\"value\":\"1.0E-5\""), "metadata[7].value", "FLOAT32");
    reject(replace("\"value\":1.0E-5", "\"value\":-0.0"), "metadata[7].value", "negative zero");
    reject(replace("\"value\":1.0E-5", "\"value\":1e39"), "metadata[7].value", "overflows");
    reject(replace("\"value\":true", "\"value\":1"), "metadata[10].value", "BOOL");
    reject(replace("\"type\":\"UINT32\"", "\"type\":\"U32\""), "metadata[2].type", "not a GGUF value type");
    reject(replace("\"storage_validation\":\"consistent\"", "\"storage_validation\":\"CONSISTENT\""),
        "tensors[0].storage_validation", "consistent or unknown");
    reject(replace("\"hash\":\"header\"", "\"hash\":\"HEADER\""), "request.hash", "is not one of");
    reject(replace("Tiny", "\\ud800Tiny"), "metadata[1].value", "unpaired surrogate");
    reject(replace("\"observed_at\":\"2026-01-02T03:04:06Z\"", "\"observed_at\":\"2026-01-02 03:04:06\""),
        "observed_at", "RFC 3339");
    reject(replace("\"header_sha256\":\"abab", "\"header_sha256\":\"ABab"), "artifact.header_sha256",
        "lowercase hex");
  }

  @Test
  void positionalIndicesAndUniquenessAreChecked() {
    reject(replace("{\"index\":1,\"name\"", "{\"index\":2,\"name\""), "tensors[1].index",
        "does not match position 1");
    reject(replace("{\"index\":1,\"key\"", "{\"index\":0,\"key\""), "metadata[1].index",
        "does not match position 1");
    reject(replace("\"name\":\"output.weight\"", "\"name\":\"token_embd.weight\""), "tensors[2].name",
        "duplicate tensor name");
    reject(replace("\"key\":\"test.u8\"", "\"key\":\"test.i8\""), "metadata[4].key",
        "duplicate metadata key");
    List<TypeRow> types = new ArrayList<>(SMALL.types());
    types.add(SMALL.types().get(0));
    EvidenceRecord dup = new EvidenceRecord(SMALL.schema(), SMALL.evidenceId(), SMALL.operation(),
        SMALL.status(), SMALL.observedAt(), SMALL.request(), SMALL.subject(), SMALL.artifact(),
        SMALL.formatFacts(), SMALL.metadata(), SMALL.tensors(), types, SMALL.totals(),
        SMALL.coverage(), SMALL.limitations(), SMALL.warnings(), SMALL.authentication());
    reject(EvidenceJson.recordBytes(dup, true), "types[2].type", "duplicate type label");
    reject(replace("\"tensor_count\":2,\"parameter_count\":\"64\"", "\"tensor_count\":3,\"parameter_count\":\"64\""),
        "types[0]", "derived");
    reject(replace("\"shape\":[\"8\",\"4\"],\"parameter_count\":\"32\"", "\"shape\":[\"8\",\"5\"],\"parameter_count\":\"32\""),
        "tensors[0].parameter_count", "product of the shape");
    reject(replace("\"file_offset\":\"4096\"", "\"file_offset\":\"4097\""), "tensors[0].file_offset",
        "data offset plus offset");
    reject(replace("\"preview_complete\":false", "\"preview_complete\":true"),
        "metadata[11].preview_complete", "preview_complete");
    reject(replace("\"tensor_indices\":[1]", "\"tensor_indices\":[3]"), "limitations[0].tensor_indices[0]",
        "not a row");
  }

  /** SMALL as a complete full-hash record whose file digest is {@code hex}, but no subject. */
  private static String fullHashWithoutSubject(String hex) {
    return TEXT.replace("\"hash\":\"header\"", "\"hash\":\"full\"")
        .replace("\"read_scope\":\"header\"", "\"read_scope\":\"full\"")
        .replace("\"digest\":\"none\"", "\"digest\":\"complete\"")
        .replace("\"bytes_read\":\"4096\"", "\"bytes_read\":\"1000000\"")
        .replace("\"sha256\":null", "\"sha256\":\"" + hex + "\"");
  }

  @Test
  void requestArtifactSubjectStatusAndCoverageAgree() {
    String hex = "cd".repeat(32);
    reject(replace("\"request\":{\"path\":\"/models/test.gguf\"", "\"request\":{\"path\":\"/models/other.gguf\""),
        "request.path", "request.path must equal artifact.path");
    reject(TEXT.replace("\"/models/test.gguf\"", "\"models/test.gguf\""), "artifact.path", "absolute");
    reject(replace("\"read_scope\":\"header\"", "\"read_scope\":\"full\""), "artifact.read_scope",
        "read_scope must equal request.hash");
    reject(replace("\"size\":\"1000000\"", "\"size\":\"999999\""), "artifact.identity.size",
        "identity.size");
    reject(replace("\"header_length\":\"3000\"", "\"header_length\":\"1000001\""),
        "artifact.header_length", "exceeds file_size");
    reject(replace("\"bytes_read\":\"4096\"", "\"bytes_read\":\"1000001\""), "artifact.bytes_read",
        "between header_length and file_size");
    reject(replace("\"final_identity\":\"verified\"", "\"final_identity\":\"unverified\""),
        "coverage.final_identity", "verified exactly when status is complete");
    reject(replace("\"verified\":true", "\"verified\":false"), "artifact.identity.verified",
        "true exactly when status is complete");
    reject(replace("\"digest\":\"none\"", "\"digest\":\"complete\""), "coverage.digest",
        "digest must be none for a complete record of a header hash");
    // A header hash that claims a whole-file digest.
    reject(replace("\"sha256\":null", "\"sha256\":\"" + hex + "\""), "artifact.sha256",
        "exactly for a complete full-hash record");
    reject(replace("\"subject\":null", "\"subject\":{\"kind\":\"file\",\"sha256\":\"" + hex + "\"}"),
        "subject", "exactly for a complete full-hash record");
    // A full hash whose subject names another digest than the artifact's.
    String full = fullHashWithoutSubject(hex);
    reject(full, "subject", "exactly for a complete full-hash record");
    reject(full.replace("\"subject\":null",
            "\"subject\":{\"kind\":\"file\",\"sha256\":\"" + "ef".repeat(32) + "\"}"),
        "subject.sha256", "must equal artifact.sha256");
    // A partial record keeps unknown digest coverage and an unverified identity.
    reject(replace("\"status\":\"complete\"", "\"status\":\"partial\""),
        "coverage.final_identity", "verified exactly when status is complete");
    reject(replace("\"storage_sizes\":\"partial\"", "\"storage_sizes\":\"complete\""),
        "coverage.storage_sizes", "does not match the tensor rows");
    reject(replace("\"ranges\":\"partial\"", "\"ranges\":\"complete\""),
        "coverage.ranges", "does not match the tensor rows");
  }

  @Test
  void aConsistentFullHashRecordAndAPartialRecordAreAccepted() throws ReaException {
    String hex = "cd".repeat(32);
    String full = fullHashWithoutSubject(hex)
        .replace("\"subject\":null", "\"subject\":{\"kind\":\"file\",\"sha256\":\"" + hex + "\"}");
    EvidenceRecord r = IMPORT.read(full.getBytes(StandardCharsets.UTF_8)).records().get(0).record();
    assertThat(r.subject().sha256()).isEqualTo(hex);
    String partial = TEXT.replace("\"status\":\"complete\"", "\"status\":\"partial\"")
        .replace("\"digest\":\"none\"", "\"digest\":\"unknown\"")
        .replace("\"final_identity\":\"verified\"", "\"final_identity\":\"unverified\"")
        .replace("\"verified\":true", "\"verified\":false");
    assertThat(IMPORT.read(partial.getBytes(StandardCharsets.UTF_8)).records().get(0).record().status())
        .isEqualTo("partial");
  }

  @Test
  void bundlesAreStrictToo() throws ReaException {
    String rec = TEXT;
    reject("{\"schema\":\"rea.bundle.v1\",\"records\":[]}", "records", "at least one record");
    reject("{\"schema\":\"rea.bundle.v1\"}", "records", "records array");
    reject("{\"schema\":\"rea.bundle.v1\",\"records\":[" + rec + "],\"x\":1}", "x", "unknown property");
    reject("{\"schema\":\"rea.bundle.v1\",\"records\":[" + rec + "," + rec + "]}",
        "records[1].evidence_id", "twice");
    reject("{\"schema\":\"rea.bundle.v1\",\"records\":[" + rec.replace("\"status\":\"complete\"", "\"status\":\"done\"") + "]}",
        "records[0].status", "is not one of");
    EvidenceImport.Imported in = IMPORT.read(
        ("{\"records\":[" + rec + "],\"schema\":\"rea.bundle.v1\"}").getBytes(StandardCharsets.UTF_8));
    assertThat(in.bundle()).isTrue();
    assertThat(in.records().get(0).record()).isEqualTo(SMALL);
    assertThat(in.records().get(0).offset()).isEqualTo(12L);
  }

  @Test
  void safetensorsRowsCarryNoTypeIdAndStayInNameOrder() {
    EvidenceRecord st = safetensors(List.of(
        new TensorRow(0, "a", "F32", null, List.of(2L), 2, 0, 100L, 8L, StorageValidation.CONSISTENT),
        new TensorRow(1, "b", "F32", null, List.of(2L), 2, 8, 108L, 8L, StorageValidation.CONSISTENT)));
    String text = new String(EvidenceJson.recordBytes(st, true), StandardCharsets.UTF_8);
    assertThat(text).contains("\"json_length\":\"92\"");
    assertThat(IMPORT_OK(text)).isTrue();
    reject(text.replace("\"name\":\"b\",\"type\":\"F32\"", "\"name\":\"b\",\"type\":\"F32\",\"type_id\":0"),
        "tensors[1].type_id", "no type_id");
    EvidenceRecord unordered = safetensors(List.of(
        new TensorRow(0, "b", "F32", null, List.of(2L), 2, 0, 100L, 8L, StorageValidation.CONSISTENT),
        new TensorRow(1, "a", "F32", null, List.of(2L), 2, 8, 108L, 8L, StorageValidation.CONSISTENT)));
    reject(EvidenceJson.recordBytes(unordered, true), "tensors[1].name", "name order");
  }

  static boolean IMPORT_OK(String text) {
    try {
      IMPORT.read(text.getBytes(StandardCharsets.UTF_8));
      return true;
    } catch (ReaException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  static EvidenceRecord safetensors(List<TensorRow> ts) {
    FileIdentity id = new FileIdentity(null, null, 116, "2026-01-02T03:04:05Z", true);
    Artifact a = new Artifact("/m/x.safetensors", "safetensors", 116, 100, "cd".repeat(32), null, 100,
        "header", id);
    return EvidenceIds.withId(new EvidenceRecord(EvidenceRecord.SCHEMA, null, EvidenceRecord.OPERATION,
        "complete", "2026-01-02T03:04:06Z", new Request("/m/x.safetensors", "header"), null, a,
        new FormatFacts.Safetensors(92, 100),
        List.of(TestRecords.string(0, "format", "pt")), ts,
        dev.rea.core.internal.evidence.Derivations.types(ts), dev.rea.core.internal.evidence.Derivations.totals(ts),
        new Coverage("complete", "complete", "complete", "none", "verified"), List.of(), List.of(),
        null));
  }
  @Test
  void theAuthenticationScreenSeesEveryRecordInOrderWithOffsetsBeforeAnythingIsRead()
      throws ReaException {
    EvidenceRecord unsigned = TestRecords.manyTensors(3);
    // A bundle: the signed small record, a non-object element, and an unsigned record.
    String bundle = "{\"records\":[" + TEXT + ",7,"
        + new String(EvidenceJson.recordBytes(unsigned, true), StandardCharsets.UTF_8)
        + "],\"schema\":\"rea.bundle.v1\"}";
    byte[] json = bundle.getBytes(StandardCharsets.UTF_8);
    EvidenceImport.Checked checked = IMPORT.check(json);
    assertThat(checked.bundle()).isTrue();
    List<EvidenceImport.AuthenticationClaim> claims = new ArrayList<>();
    checked.screenAuthentication(claims::add);
    assertThat(claims).hasSize(2);

    EvidenceImport.AuthenticationClaim first = claims.get(0);
    assertThat(first.index()).isZero();
    assertThat(first.prefix()).isEqualTo("records[0].");
    assertThat(first.authentication()).isEqualTo(SMALL.authentication());
    String keyValue = "\"" + SMALL.authentication().keyId() + "\"";
    long keyAt = bundle.substring(0, bundle.indexOf(keyValue)).getBytes(StandardCharsets.UTF_8).length;
    assertThat(first.keyIdOffset()).isEqualTo(keyAt);
    ReaException e = first.reject("key_id", "not trusted here");
    assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
    assertThat(e.field()).isEqualTo("records[0].authentication.key_id");
    assertThat(e.offset()).isEqualTo(keyAt);
    assertThat(e.getMessage()).isEqualTo(
        "evidence rejected at records[0].authentication.key_id: not trusted here (byte " + keyAt + ")");

    EvidenceImport.AuthenticationClaim third = claims.get(1);
    assertThat(third.index()).isEqualTo(2);
    assertThat(third.prefix()).isEqualTo("records[2].");
    assertThat(third.authentication()).isNull();
    long recordAt = bundle.substring(0, bundle.indexOf(",7,") + 3)
        .getBytes(StandardCharsets.UTF_8).length;
    assertThat(third.offset()).isEqualTo(recordAt);
    assertThat(third.reject("", "the record is not signed").field())
        .isEqualTo("records[2].authentication");

    // The full read still refuses the non-object element the screen skipped.
    assertThatThrownBy(checked::read).isInstanceOfSatisfying(ReaException.class,
        x -> assertThat(x.field()).isEqualTo("records[1]"));
    // A screen that throws stops the pass at the first record.
    List<Integer> seen = new ArrayList<>();
    assertThatThrownBy(() -> IMPORT.check(json).screenAuthentication(c -> {
      seen.add(c.index());
      throw c.reject("scheme", "no");
    })).isInstanceOfSatisfying(ReaException.class,
        x -> assertThat(x.field()).isEqualTo("records[0].authentication.scheme"));
    assertThat(seen).containsExactly(0);
  }
}
