package dev.rea.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Property: a saved set bundle and a set's in-toto envelope (DSSE) with one bit flipped anywhere
 * (bit 0, 5 or 7 of a random byte) are refused as {@code evidence_rejected}, unless the flip kept
 * their meaning, in which case they are read as the same set. Meaning is decided without REA's
 * readers: a bundle keeps it when its RFC 8785 form is unchanged (the reference canonicaliser);
 * an envelope when, parsed by Jackson, its payload type, decoded payload and decoded signatures
 * are unchanged (DSSE's meaning: a key id is a hint, unknown members are ignored). As {@code ByteFlipTest} does for a file's Evidence, over
 * random positions (QuickTheories: a failure names a reproducible position).
 */
class SetEvidenceByteFlipTest {
  @TempDir static Path tmp;
  private static Rea rea;
  private static final List<byte[]> FILES = new ArrayList<>();
  private static SetEvidence expected;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int[] BITS = {0, 5, 7};

  @BeforeAll
  static void save() throws Exception {
    rea = Rea.builder().home(tmp.resolve("home")).build();
    SetFixtures.Checkpoint ckpt = SetFixtures.checkpoint(tmp.resolve("ckpt"), 2, 2);
    SetInspection got = rea.inspectSet(
        ckpt.index, InspectOptions.builder().hash(HashMode.FULL).build());
    SetInspection.Complete signed = rea.sign((SetInspection.Complete) got);
    FILES.add(Rea.setBundleJson(signed.set(), signed.members()));
    FILES.add(rea.inTotoEnvelope(signed.set(), signed.members()));
    expected = rea.readSetEvidence(FILES.get(0));
    assertThat(rea.readSetEvidence(FILES.get(1)).set()).isEqualTo(expected.set());
  }

  @Test
  void aFlippedBitIsRefusedUnlessItKeepsTheMeaning() {
    int[] refused = {0};
    qt().withFixedSeed(0xF11BL).withExamples(1500)
        .forAll(integers().between(0, 1), integers().allPositive(), integers().between(0, 2))
        .checkAssert((which, at, bitIndex) -> {
          byte[] original = FILES.get(which);
          byte[] m = original.clone();
          int i = at % m.length;
          m[i] ^= (byte) (1 << BITS[bitIndex]);
          boolean same = which == 0 ? sameBundle(original, m) : sameEnvelope(original, m);
          String where = (which == 0 ? "bundle" : "envelope") + " byte " + i + " bit "
              + BITS[bitIndex] + " (" + context(original, i) + " -> " + (char) (m[i] & 0xFF) + ")";
          SetEvidence read;
          try {
            read = rea.readSetEvidence(m);
          } catch (ReaException e) {
            assertThat(e.constraint()).as(where + ": " + e.getMessage())
                .isEqualTo(Constraint.EVIDENCE_REJECTED);
            assertThat(same).as(where + " keeps the meaning but was refused: " + e.getMessage())
                .isFalse();
            refused[0]++;
            return;
          }
          assertThat(same).as(where + " changed the meaning but was accepted").isTrue();
          assertThat(read.set()).isEqualTo(expected.set());
          assertThat(read.memberRecords()).isEqualTo(expected.memberRecords());
        });
    assertThat(refused[0]).as("refused").isGreaterThan(1000);
  }

  /** @return up to 30 bytes either side of {@code i}, for a failure's message */
  private static String context(byte[] b, int i) {
    int from = Math.max(0, i - 30);
    return new String(b, from, Math.min(60, b.length - from),
        java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  private static boolean sameBundle(byte[] original, byte[] m) {
    try {
      return Arrays.equals(EvidenceIds.canonicalize(original), EvidenceIds.canonicalize(m));
    } catch (RuntimeException notJson) {
      return false;
    }
  }

  private static boolean sameEnvelope(byte[] original, byte[] m) {
    try {
      return meaning(JSON.readTree(original)).equals(meaning(JSON.readTree(m)));
    } catch (RuntimeException notJsonOrNotAnEnvelope) {
      return false;
    }
  }

  /**
   * @return what a DSSE envelope says, as DSSE reads it: its payload type, its decoded payload and
   *     its signatures' decoded bytes. A {@code keyid} is an unauthenticated hint, and unknown
   *     members are ignored (DSSE's protocol; REA's reader says so), so neither is meaning.
   */
  private static List<Object> meaning(JsonNode envelope) {
    List<Object> out = new ArrayList<>();
    out.add(Objects.requireNonNull(envelope.get("payloadType")).asString());
    out.add(Arrays.toString(Base64.getDecoder().decode(envelope.get("payload").asString())));
    for (JsonNode s : envelope.get("signatures")) {
      JsonNode sig = s.get("sig");
      out.add(sig == null || !sig.isString()
          ? "no signature"
          : Arrays.toString(Base64.getDecoder().decode(sig.asString())));
    }
    return out;
  }
}
