package dev.rea.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceJson;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.testing.ChildJvm;
import dev.rea.core.testing.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Evidence near the input limit is authenticated in memory that follows a part of it, not the
 * whole: the canonical form of its text is built in parts (EvidenceIds.canonicalizeText). A
 * 200,000-tensor record (about 37 MB) whose signature was altered by one bit is refused for its
 * signature in a 288 MB heap, and the same record unaltered verifies there. Canonicalized whole,
 * the library's tree of such a text took about a gigabyte (a hostile-input trial: 980 MB RSS to
 * refuse a forged 43 MB file).
 */
class LargeEvidenceTest {
  @TempDir Path dir;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aLargeForgedRecordIsRefusedForItsSignatureInASmallHeap() throws Exception {
    Path home = dir.resolve("home");
    KeyRing ring = KeyRing.open(home);
    EvidenceRecord signed = new EvidenceSigner(ring).sign(TestRecords.manyTensors(200_000));
    Path good = Files.write(dir.resolve("good.json"), EvidenceJson.recordBytes(signed, true));
    Authentication a = signed.authentication();
    byte[] sig = Base64.getDecoder().decode(a.signature());
    sig[5] ^= 1;
    EvidenceRecord forged =
        signed.withAuthentication(
            new Authentication(a.scheme(), a.keyId(), Base64.getEncoder().encodeToString(sig)));
    Path bad = Files.write(dir.resolve("bad.json"), EvidenceJson.recordBytes(forged, true));
    assertThat(Files.size(bad)).isGreaterThan(30_000_000L);

    ChildJvm.Result refused = run(bad, home);
    assertThat(refused.exit()).as(refused.output()).isEqualTo(LargeEvidenceChild.EXIT_REJECTED);
    assertThat(refused.output())
        .contains("rejected: evidence_rejected at authentication.signature: ")
        .contains("the signature does not verify");
    ChildJvm.Result verified = run(good, home);
    assertThat(verified.exit()).as(verified.output()).isEqualTo(0);
    assertThat(verified.output()).contains("verified: 200000 tensors");
  }

  private static ChildJvm.Result run(Path file, Path home) throws Exception {
    return ChildJvm.run(
        List.of("-XX:+UseSerialGC", "-Xmx288m", "-Xmn16m"),
        LargeEvidenceChild.class,
        240,
        file.toString(),
        home.toString());
  }
}
