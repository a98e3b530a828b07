package dev.rea.core.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.testing.ChildJvm;
import dev.rea.core.testing.TestRecords;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Evidence near the size limits is authenticated in bounded memory: the canonical form of its
 * text is written without a tree (EvidenceIds.canonicalize) and the record's own form is only
 * compared with it as it is written (EvidenceIds.mismatch). A
 * 160,000-tensor record (about 31 MB, within the 32 MiB retained budget that bounds every record
 * REA writes) whose signature was altered by one bit is refused for its signature in a 288 MB
 * heap, and the same record unaltered verifies there; a 200,000-tensor record (about 37 MB) is
 * refused for its size before it is canonicalized. Canonicalized whole, the library's tree of
 * such a text took about a gigabyte (a hostile-input trial: 980 MB RSS to refuse a forged 43 MB
 * file).
 */
class LargeEvidenceTest {
  @TempDir Path dir;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aLargeForgedRecordIsRefusedForItsSignatureInASmallHeap() throws Exception {
    EvidenceRecord signed = signed(160_000);
    Path good = Files.write(dir.resolve("good.json"), EvidenceJson.recordBytes(signed, true));
    Path bad = Files.write(dir.resolve("bad.json"), EvidenceJson.recordBytes(forged(signed), true));
    assertThat(Files.size(bad)).isGreaterThan(28_000_000L).isLessThan(32L << 20);

    ChildJvm.Result refused = run(bad);
    assertThat(refused.exit()).as(refused.output()).isEqualTo(LargeEvidenceChild.EXIT_REJECTED);
    assertThat(refused.output())
        .contains("rejected: evidence_rejected at authentication.signature: ")
        .contains("the signature does not verify");
    ChildJvm.Result verified = run(good);
    assertThat(verified.exit()).as(verified.output()).isEqualTo(0);
    assertThat(verified.output()).contains("verified: 160000 tensors");
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aRecordLargerThanTheRetainedBudgetIsRefusedForItsSize() throws Exception {
    Path big = Files.write(dir.resolve("big.json"), EvidenceJson.recordBytes(signed(200_000), true));
    ChildJvm.Result refused = run(big);
    assertThat(refused.exit()).as(refused.output()).isEqualTo(LargeEvidenceChild.EXIT_REJECTED);
    assertThat(refused.output())
        .contains(
            "rejected: retained_budget at record: the record at offset 0 takes more than 33554432"
                + " bytes as compact JSON (without evidence_id and authentication): more than the"
                + " retained representation budget that bounds every record REA writes");
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aRecordWithOneStringLongerThanTheBudgetIsRefusedBeforeTheStringIsHeldWhole()
      throws Exception {
    // 60,000,000 ASCII characters in one metadata value: within the 64 MiB input limit, past
    // the 32 MiB budget. The parser that copies the record stops decoding the string at the
    // budget; decoded whole (its characters, their String and its copy) it did not fit this heap.
    ChildJvm.Result refused = runWithHuge("general.name", "MARKER", "MARKER", "long-string.json");
    assertThat(refused.exit()).as(refused.output()).isEqualTo(LargeEvidenceChild.EXIT_REJECTED);
    assertThat(refused.output())
        .contains("rejected: retained_budget at record: the record at offset 0 takes more than");
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aPropertyNameLongerThanAnyOfEvidenceIsRefusedBeforeItIsDecoded() throws Exception {
    // An unknown member whose name is 60,000,000 characters, in the metadata row. Jackson decodes
    // every name (even of a skipped object) to check duplicates: a hostile trial measured 683 to
    // 751 MB peak RSS to refuse it. Names are now limited to 256 characters (every Evidence name
    // is shorter), so it is refused in the first pass, within this small heap.
    ChildJvm.Result refused =
        runWithHuge("general.name", "\"MARKER\"", "\"MARKER\",\"MARKER\":1", "long-name.json");
    assertThat(refused.exit()).as(refused.output()).isEqualTo(LargeEvidenceChild.EXIT_REJECTED);
    assertThat(refused.output())
        .containsPattern(
            "rejected: evidence_rejected at null: evidence rejected: a property name is longer than"
                + " 256 characters, longer than any this format has \\(byte \\d+\\)");
  }

  /**
   * Writes a signed one-row record whose metadata value is {@code "MARKER"} with the quoted value
   * replaced by {@code replacement}, its second {@code MARKER} (if any) standing for 60,000,000
   * ASCII letters, and reads it in a child JVM with a 192 MiB heap.
   */
  private ChildJvm.Result runWithHuge(
      String key, String quotedMarker, String replacement, String file) throws Exception {
    EvidenceRecord withMarker =
        TestRecords.gguf(
            List.of(TestRecords.string(0, key, "MARKER")),
            List.of(TestRecords.f32(0, "w", 0, 4)),
            List.of(),
            List.of());
    String text =
        new String(EvidenceJson.recordBytes(signed(withMarker), true), StandardCharsets.UTF_8);
    int at = text.indexOf(quotedMarker);
    assertThat(text.indexOf("MARKER", text.indexOf("MARKER") + 1)).isEqualTo(-1);
    String spliced =
        text.substring(0, at) + replacement + text.substring(at + quotedMarker.length());
    // The last MARKER of the splice becomes the huge text.
    int huge = spliced.lastIndexOf("MARKER");
    byte[] before = spliced.substring(0, huge).getBytes(StandardCharsets.UTF_8);
    byte[] after = spliced.substring(huge + "MARKER".length()).getBytes(StandardCharsets.UTF_8);
    Path big = dir.resolve(file);
    try (OutputStream out = Files.newOutputStream(big)) {
      out.write(before);
      byte[] chunk = new byte[1 << 20];
      Arrays.fill(chunk, (byte) 'a');
      long left = 60_000_000L;
      while (left > 0) {
        int n = (int) Math.min(chunk.length, left);
        out.write(chunk, 0, n);
        left -= n;
      }
      out.write(after);
    }
    assertThat(Files.size(big)).isGreaterThan(60_000_000L).isLessThan(64L << 20);
    return run(big, "-Xmx192m");
  }

  /** @return a record of {@code tensors} tensors signed with a key in {@link #home()} */
  private EvidenceRecord signed(int tensors) throws Exception {
    return signed(TestRecords.manyTensors(tensors));
  }

  private EvidenceRecord signed(EvidenceRecord unsigned) throws Exception {
    return new EvidenceSigner(KeyRing.open(home())).sign(unsigned);
  }

  private Path home() {
    return dir.resolve("home");
  }

  /** @return the record with one bit of its signature flipped */
  private static EvidenceRecord forged(EvidenceRecord signed) {
    Authentication a = signed.authentication();
    byte[] sig = Base64.getDecoder().decode(a.signature());
    sig[5] ^= 1;
    return signed.withAuthentication(
        new Authentication(a.scheme(), a.keyId(), Base64.getEncoder().encodeToString(sig)));
  }

  private ChildJvm.Result run(Path file) throws Exception {
    return run(file, "-Xmx288m");
  }

  /** Runs {@link LargeEvidenceChild} on the file in a child JVM with the heap bound {@code xmx}. */
  private ChildJvm.Result run(Path file, String xmx) throws Exception {
    return ChildJvm.run(
        List.of("-XX:+UseSerialGC", xmx, "-Xmn16m"),
        LargeEvidenceChild.class,
        240,
        file.toString(),
        home().toString());
  }
}
