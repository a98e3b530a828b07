package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.Rea;
import dev.rea.core.SetEvidence;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Signing, bundles and reading them back; full hash progress and cancel over a set. */
class SetBundleTest {
  @TempDir Path dir;
  @TempDir Path home;

  private Rea rea() {
    return Rea.builder().home(home).build();
  }

  private SetInspection.Complete signedSplit(Rea rea) throws ReaException {
    List<Path> m = SetFixtures.ggufSplit(dir, "b", 3, 1, 2);
    return rea.sign(rea.inspectSet(m.get(0), InspectOptions.defaults()).orThrow());
  }

  @Test
  void aSignedBundleReadsBackWithTheSetFirst() throws Exception {
    Rea rea = rea();
    SetInspection.Complete c = signedSplit(rea);
    assertThat(c.set().authentication()).isNotNull();
    // Signing leaves every id as it was.
    assertThat(c.set().members().get(1).evidenceId()).isEqualTo(c.members().get(1).evidenceId());
    Path out = dir.resolve("set.json");
    rea.writeSetEvidence(out, c.set(), c.members());
    String text = Files.readString(out);
    assertThat(text).startsWith("{\"schema\":\"rea.bundle.v1\",\"records\":[{\"schema\":\"rea.model-set.v1\"");
    SetEvidence back = rea.readSetEvidence(out);
    assertThat(back.set()).isEqualTo(c.set());
    assertThat(back.memberRecords()).isEqualTo(c.members());
    assertThat(Rea.isSetBundle(Files.readAllBytes(out))).isTrue();
  }

  @Test
  void membersSignedWhileInspectedAreTheMembersSignedAfterwards() throws Exception {
    Rea rea = rea();
    List<Path> m = SetFixtures.ggufSplit(dir, "s", 3, 1, 2);
    SetInspection.Complete after = signedSplit(rea);
    List<EvidenceRecord> delivered = new ArrayList<>();
    SetInspection.Complete during =
        rea.inspectSetSigned(m.get(0), InspectOptions.defaults(), (k, r) -> delivered.add(r))
            .orThrow();
    assertThat(delivered).hasSize(3);
    for (int k = 0; k < 3; k++) {
      EvidenceRecord r = delivered.get(k);
      assertThat(r.authentication()).isNotNull();
      // Ed25519 is deterministic: the same fields as signing the inspected record afterwards,
      // apart from the observation time.
      EvidenceRecord resigned = rea.sign(r.withEvidenceId(null).withAuthentication(null));
      assertThat(r.evidenceId()).isEqualTo(resigned.evidenceId());
      assertThat(r.authentication()).isEqualTo(resigned.authentication());
      // Signing a record delivered signed gives it back as it is.
      assertThat(rea.sign(r)).isSameAs(r);
      assertThat(during.set().members().get(k).evidenceId()).isEqualTo(r.evidenceId());
    }
    assertThat(after.members()).hasSize(3);
    // The bundle of members signed while inspected reads back (ids and signatures verified).
    Path out = dir.resolve("signed-during.json");
    rea.writeSetEvidence(out, rea.sign(during.set()), delivered);
    assertThat(rea.readSetEvidence(out).memberRecords()).isEqualTo(delivered);
  }

  @Test
  void aMemberListThatDoesNotMatchTheMemberRecordsIsRejected() throws Exception {
    Rea rea = rea();
    SetInspection.Complete c = signedSplit(rea);
    List<EvidenceRecord> fewer = new ArrayList<>(c.members());
    fewer.remove(2);
    byte[] json = Rea.setBundleJson(c.set(), fewer);
    assertThatThrownBy(() -> rea.readSetEvidence(json))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.field()).isEqualTo("records[0].members");
        });
    List<EvidenceRecord> swapped = new ArrayList<>(c.members());
    swapped.set(0, c.members().get(1));
    swapped.set(1, c.members().get(0));
    assertThatThrownBy(() -> rea.readSetEvidence(Rea.setBundleJson(c.set(), swapped)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("records[0].members[0]"));
  }

  @Test
  void aChangedSetRecordOrMemberFailsItsIdentity() throws Exception {
    Rea rea = rea();
    SetInspection.Complete c = signedSplit(rea);
    String json = new String(Rea.setBundleJson(c.set(), c.members()), StandardCharsets.UTF_8);
    String setKind = json.replaceFirst("\"kind\":\"gguf_split\"", "\"kind\":\"single_file\"");
    assertThatThrownBy(() -> rea.readSetEvidence(setKind.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("records[0].evidence_id"));
    // The second record is the first member: change its request hash text.
    int second = json.indexOf("{\"schema\":\"rea.evidence.v1\"");
    String member = json.substring(0, second)
        + json.substring(second).replaceFirst("\"observed_at\":\"", "\"observed_at\":\"1");
    assertThatThrownBy(() -> rea.readSetEvidence(member.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED));
    String unknown = json.replaceFirst("\"members\":", "\"extra\":1,\"members\":");
    assertThatThrownBy(() -> rea.readSetEvidence(unknown.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("records[0].extra"));
    assertThat(json).contains("\"split.tensors.count\"");
  }

  /**
   * A set record signed by a trusted key but saying what no set inspection says (a tensor in two
   * members, a set of one with two members) is refused: a signature vouches for who wrote it,
   * not for what it may hold.
   */
  @Test
  void aSignedSetThatNoInspectionWouldWriteIsRejected() throws Exception {
    Rea rea = rea();
    SetInspection.Complete a = signedSplit(rea);
    List<Path> other =
        SetFixtures.ggufSplit(Files.createDirectories(dir.resolve("other")), "o", 3, 1, 2);
    SetInspection.Complete b =
        rea.sign(rea.inspectSet(other.get(0), InspectOptions.defaults()).orThrow());
    // Both first members declare blk.0.weight.
    List<EvidenceRecord> twice = List.of(a.members().get(0), b.members().get(0));
    assertThat(twice.get(1).tensors().get(0).name()).isEqualTo(twice.get(0).tensors().get(0).name());
    SetRecordBuilder dup = new SetRecordBuilder(a.set().request(), a.set().observedAt(), a.set().set());
    twice.forEach(dup::add);
    ModelSetRecord forged = rea.sign(dup.complete(List.of()));
    assertThatThrownBy(() -> rea.readSetEvidence(Rea.setBundleJson(forged, twice)))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.field()).isEqualTo("records[2].tensors[0].name");
          assertThat(e.getMessage()).contains("is in members 0 and 1");
        });

    List<EvidenceRecord> two = a.members().subList(0, 2);
    SetRecordBuilder one =
        new SetRecordBuilder(a.set().request(), a.set().observedAt(),
            new ModelSetRecord.SetInfo("single_file", a.set().set().path(), null));
    two.forEach(one::add);
    ModelSetRecord single = rea.sign(one.complete(List.of()));
    assertThatThrownBy(() -> rea.readSetEvidence(Rea.setBundleJson(single, two)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("records[0].set.kind"));
  }

  @Test
  void aSetBundleWithoutMemberRecordsSaysSo() throws Exception {
    Rea rea = rea();
    SetInspection.Complete c = signedSplit(rea);
    byte[] json = Rea.setBundleJson(c.set(), List.of());
    assertThatThrownBy(() -> rea.readSetEvidence(json))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.field()).isEqualTo("records");
          assertThat(e.getMessage()).contains("holds the set record only");
        });
  }

  @Test
  void aMembersFailureIsPlacedWhereTheBundleHoldsIt() throws Exception {
    Rea rea = rea();
    SetInspection.Complete c = signedSplit(rea);
    String json = new String(Rea.setBundleJson(c.set(), c.members()), StandardCharsets.UTF_8);
    // The third record of the bundle is the second member: give it a property no record has.
    int first = json.indexOf("{\"schema\":\"rea.evidence.v1\"");
    int second = json.indexOf("{\"schema\":\"rea.evidence.v1\"", first + 1);
    String forged = json.substring(0, second + 1) + "\"zz\":1," + json.substring(second + 1);
    assertThatThrownBy(() -> rea.readSetEvidence(forged.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.field()).startsWith("records[2]");
          assertThat(e.getMessage()).contains("at " + e.field());
          assertThat(e.offset()).isNotNull();
          long at = e.offset();
          assertThat(at).isBetween((long) second, (long) second + 8);
          assertThat(e.getMessage()).contains("(byte " + at + ")");
        });
  }

  @Test
  void anUnsignedSetRecordIsRejected() throws Exception {
    Rea rea = rea();
    SetInspection.Complete c = signedSplit(rea);
    byte[] json = Rea.setBundleJson(c.set().withAuthentication(null), c.members());
    assertThatThrownBy(() -> rea.readSetEvidence(json))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("records[0].authentication"));
  }

  @Test
  void aFullHashReportsOneProgressStreamOverTheWholeSet() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "h", 3, 1, 2);
    long total = 0;
    for (Path p : m) {
      total += Files.size(p);
    }
    List<long[]> seen = new ArrayList<>();
    SetInspection.Complete c = rea().inspectSet(m.get(0), InspectOptions.builder()
        .hash(HashMode.FULL).progress((done, of) -> seen.add(new long[] {done, of})).build())
        .orThrow();
    assertThat(seen).isNotEmpty();
    long last = -1;
    for (long[] s : seen) {
      assertThat(s[1]).isEqualTo(total);
      assertThat(s[0]).isGreaterThanOrEqualTo(last);
      last = s[0];
    }
    assertThat(last).isEqualTo(total);
    assertThat(c.set().coverage().digest()).isEqualTo("complete");
    assertThat(c.set().members()).allSatisfy(x -> assertThat(x.sha256()).hasSize(64));
  }

  @Test
  void aCancelDuringTheSecondMemberGivesThePartialSetOfTheFirst() throws Exception {
    // Member 2 holds 1 MiB of tensor data: its hash takes several reads, between which the
    // cancel is seen.
    List<Path> m = SetFixtures.ggufSplit(dir, "c", 3, 1, 2,
        (no, b) -> { if (no == 2) b.tensor("big", 0, 512, 512); });
    long first = Files.size(m.get(0));
    Cancellation cancel = new Cancellation();
    SetInspection r = rea().inspectSet(m.get(0), InspectOptions.builder()
        .hash(HashMode.FULL).cancellation(cancel)
        .progress((done, of) -> { if (done > first) cancel.cancel(); }).build());
    assertThat(r).isInstanceOf(SetInspection.Failed.class);
    SetInspection.Failed f = (SetInspection.Failed) r;
    assertThat(f.error().constraint()).isEqualTo(Constraint.CANCELLED);
    ModelSetRecord p = f.partial();
    assertThat(p.status()).isEqualTo("partial");
    assertThat(p.members()).hasSize(1);
    assertThat(p.coverage().digest()).isEqualTo("unknown");
    assertThat(p.coverage().finalIdentity()).isEqualTo("unverified");
    String err = new String(Rea.setErrorJson(f.error(), p), StandardCharsets.UTF_8);
    assertThat(err).startsWith("{\"error\":{\"code\":\"cancelled\"");
    assertThat(err).contains(",\"partial_evidence\":{\"schema\":\"rea.model-set.v1\"");
    assertThat(EvidenceJson.BUNDLE_SCHEMA).isEqualTo("rea.bundle.v1");
  }
}
