package dev.rea.core.internal.evidence;

import static dev.rea.core.internal.evidence.EvidenceImportTest.IMPORT;
import static dev.rea.core.internal.evidence.EvidenceImportTest.TEXT;
import static dev.rea.core.internal.evidence.EvidenceImportTest.reject;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The strict importer and {@code value_sha256} (CONTRACT section 11): optional on ARRAY rows
 * (records saved before the field stay valid), 64 lowercase hex digits when present, refused
 * anywhere else; and the canonical form (so the evidence ID) covers it.
 */
class ArrayDigestImportTest {
  /** The array row of {@code TestRecords.small()} whose preview is incomplete (metadata[11]). */
  private static final String TOKENS_END = "\"preview_complete\":false";

  private static String withDigest(String digestJson) {
    assertThat(TEXT).contains(TOKENS_END);
    return TEXT.replace(TOKENS_END, TOKENS_END + ",\"value_sha256\":" + digestJson);
  }

  private static EvidenceRecord read(String json) throws ReaException {
    return IMPORT.read(json.getBytes(StandardCharsets.UTF_8)).records().get(0).record();
  }

  @Test
  void aDigestIsReadWrittenBackAndCoveredByTheCanonicalForm() throws ReaException {
    String hex = EvidenceIds.sha256Hex(new byte[] {1, 2, 3});
    EvidenceRecord with = read(withDigest("\"" + hex + "\""));
    MetadataRow row = with.metadata().get(11);
    assertThat(row.valueSha256()).isEqualTo(hex);
    assertThat(with.metadata().stream().filter(m -> m.valueSha256() != null)).hasSize(1);
    // Written back exactly where it was read (Jackson writer and canonical form).
    assertThat(new String(EvidenceJson.recordBytes(with, true), StandardCharsets.UTF_8))
        .isEqualTo(withDigest("\"" + hex + "\""));
    String canonical = new String(EvidenceIds.canonicalBytes(with), StandardCharsets.UTF_8);
    assertThat(canonical).contains("\"type\":\"ARRAY\",\"value_sha256\":\"" + hex + "\"}");
    // Older records without the field keep their identity; the field changes it.
    EvidenceRecord without = read(TEXT);
    assertThat(without.metadata().get(11).valueSha256()).isNull();
    assertThat(EvidenceIds.compute(with)).isNotEqualTo(EvidenceIds.compute(without));
  }

  @Test
  void malformedOrMisplacedDigestsAreRefused() {
    String f = "metadata[11].value_sha256";
    reject(withDigest("\"" + "A".repeat(64) + "\""), f, "64 lowercase hex");
    reject(withDigest("\"" + "a".repeat(63) + "\""), f, "64 lowercase hex");
    reject(withDigest("\"" + "a".repeat(65) + "\""), f, "64 lowercase hex");
    reject(withDigest("\"sha256:" + "a".repeat(64) + "\""), f, "64 lowercase hex");
    reject(withDigest("null"), f, "expected a string");
    reject(withDigest("7"), f, "expected a string");
    // On a scalar row, and inside a nested array object, it is an unknown property.
    reject(TEXT.replace("\"value\":4096", "\"value\":4096,\"value_sha256\":\"" + "a".repeat(64) + "\""),
        "metadata[2].value_sha256", "unknown property");
    String nested = "\"count\":\"2\",\"element_type\":\"INT32\"";
    String nestedObject = TEXT.contains(nested) ? nested : "\"element_type\":\"INT32\",\"count\":\"2\"";
    reject(TEXT.replace(nestedObject, nestedObject + ",\"value_sha256\":\"" + "a".repeat(64) + "\""),
        "metadata[12].preview[0].value_sha256", "unknown property");
  }

  @Test
  void everySingleCharacterMutationOfADigestIsAcceptedExactlyWhenItStaysLowercaseHex() {
    Random r = new Random(19);
    String hex = EvidenceIds.sha256Hex("tokens".getBytes(StandardCharsets.UTF_8));
    String alphabet = "0123456789abcdefABCDEFgxz-\" ";
    for (int trial = 0; trial < 400; trial++) {
      int at = r.nextInt(64);
      char c = alphabet.charAt(r.nextInt(alphabet.length()));
      String mutated = hex.substring(0, at) + (c == '"' ? "\\\"" : String.valueOf(c)) + hex.substring(at + 1);
      boolean valid = MetadataRow.isSha256Hex(hex.substring(0, at) + c + hex.substring(at + 1));
      boolean accepted;
      try {
        EvidenceRecord rec = read(withDigest("\"" + mutated + "\""));
        accepted = true;
        assertThat(rec.metadata().get(11).valueSha256()).isEqualTo(mutated);
      } catch (ReaException e) {
        accepted = false;
        assertThat(e.field()).isEqualTo("metadata[11].value_sha256");
      }
      assertThat(accepted).as("digest %s", mutated).isEqualTo(valid);
    }
  }
}
