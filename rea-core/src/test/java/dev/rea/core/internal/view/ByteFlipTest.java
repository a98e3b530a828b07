package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.EvidenceFiles;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.testing.TestRecords;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewCollection;
import dev.rea.core.view.ViewRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Walks every byte of a saved signed record and of a saved bundle, flipping in turn bit 0 (the
 * neighbouring character: digits, letters, quotes and brackets), bit 5 (ASCII case, space to NUL)
 * and bit 7 (breaks or changes UTF-8), and loads the result as {@code inspect-analysis-view} does (read the file,
 * authenticate, index, answer a view).
 *
 * <p>Expected outcome, decided independently of REA's importer: the mutated text is given to the
 * RFC 8785 canonicaliser. When it is not JSON, or its canonical form differs from the
 * original's, the flip changed the meaning and REA must refuse with {@code evidence_rejected}.
 * When the canonical forms are equal the flip kept the meaning (in these files: the case of a hex
 * digit in a {@code \u001F} escape, or of the {@code E} of a number exponent) and REA must answer
 * exactly as for the untouched file.
 */
class ByteFlipTest {
  static final int[] FLIPPED_BITS = {0, 5, 7};

  @TempDir Path tmp;

  @Test
  void everySingleBitFlipOfARecordAndABundleIsRefusedUnlessItKeepsTheMeaning() throws Exception {
    KeyRing ring = KeyRing.open(tmp.resolve("home"));
    EvidenceSigner signer = new EvidenceSigner(ring);
    EvidenceLoader loader = new EvidenceLoader(EvidenceVerifier.standard(ring));
    EvidenceRecord record = signer.sign(TestRecords.small());

    Path recordFile = tmp.resolve("record.json");
    EvidenceFiles.writeAtomically(recordFile, EvidenceJson.recordBytes(record, true));
    Path bundleFile = tmp.resolve("bundle.json");
    EvidenceFiles.writeAtomically(bundleFile, EvidenceJson.bundleBytes(List.of(record)));

    for (Path file : List.of(recordFile, bundleFile)) {
      byte[] original = java.nio.file.Files.readAllBytes(file);
      byte[] canonicalOriginal = EvidenceIds.canonicalize(original);
      String answer = answer(loader.loadFile(file));
      assertThat(answer).contains("\"total_matches\":3");

      int refused = 0;
      Map<String, Integer> kept = new TreeMap<>();
      for (int i = 0; i < original.length; i++) {
        for (int bit : FLIPPED_BITS) {
          byte[] m = original.clone();
          m[i] ^= (byte) (1 << bit);
          boolean sameMeaning = sameMeaning(canonicalOriginal, m);
          String got;
          try {
            got = answer(loader.load(m));
          } catch (ReaException e) {
            assertThat(e.constraint())
                .as("byte %d bit %d: %s", i, bit, e.getMessage())
                .isEqualTo(Constraint.EVIDENCE_REJECTED);
            assertThat(sameMeaning)
                .as("byte %d bit %d keeps the meaning but was refused: %s", i, bit, e.getMessage())
                .isFalse();
            refused++;
            continue;
          }
          assertThat(sameMeaning)
              .as("byte %d bit %d (%s -> %s) changed the meaning but was accepted", i, bit,
                  (char) original[i], (char) m[i])
              .isTrue();
          assertThat(got).isEqualTo(answer);
          String ctx = new String(original, Math.max(0, i - 3), 4, StandardCharsets.UTF_8)
              + " -> " + (char) m[i];
          kept.merge(ctx, 1, Integer::sum);
        }
      }
      System.out.printf("%s: %d bytes, %d flips refused, %d kept the meaning: %s%n",
          file.getFileName(), original.length, refused, kept.values().stream().mapToInt(x -> x).sum(),
          kept);
      // The only meaning-preserving flips in these files: the exponent letter of 1.0E-5 and the
      // hex digit F of the \u001F escape (both case flips, bit 5).
      assertThat(kept).containsOnlyKeys("1.0E -> e", "001F -> f");
      assertThat(refused).isEqualTo(original.length * FLIPPED_BITS.length - 2);
    }
  }

  private static boolean sameMeaning(byte[] canonicalOriginal, byte[] mutated) {
    try {
      return Arrays.equals(canonicalOriginal, EvidenceIds.canonicalize(mutated));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static String answer(EvidenceLoader.Loaded loaded) throws ReaException {
    IndexedEvidence ev = EvidenceLoader.select(loaded, null);
    return ViewPages.answer(ev, ViewRequest.all(ViewCollection.TENSORS), SourceKind.EVIDENCE_FILE)
        .text();
  }
}
