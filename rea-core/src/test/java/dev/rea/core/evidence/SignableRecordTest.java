package dev.rea.core.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Rea;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import dev.rea.core.testing.TestRecords;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one-field copies both record types take from {@link SignableRecord}. */
class SignableRecordTest {
  private static final String OTHER_ID = "sha256:" + "1".repeat(64);
  private static final Authentication OTHER_AUTH =
      new Authentication("ed25519", "sha256:" + "2".repeat(64), "AAAA");

  @TempDir Path dir;
  @TempDir Path home;

  @Test
  void aModelRecordCopyReplacesOneFieldAndKeepsTheOther() {
    EvidenceRecord r = TestRecords.small().withAuthentication(OTHER_AUTH);
    assertOneFieldCopies(r);
    EvidenceRecord moved = r.withEvidenceId(OTHER_ID);
    assertThat(moved.tensors()).isEqualTo(r.tensors());
    assertThat(moved.metadata()).isEqualTo(r.metadata());
  }

  @Test
  void aSetRecordCopyReplacesOneFieldAndKeepsTheOther() throws Exception {
    Rea rea = Rea.builder().home(home).build();
    List<Path> m = SetFixtures.ggufSplit(dir, "s", 2, 1, 2);
    ModelSetRecord set = rea.sign(rea.inspectSet(m.get(0), InspectOptions.defaults()).orThrow())
        .set();
    assertThat(set.authentication()).isNotNull();
    assertOneFieldCopies(set);
    assertThat(set.withEvidenceId(OTHER_ID).members()).isEqualTo(set.members());
  }

  private static <R extends SignableRecord<R>> void assertOneFieldCopies(R r) {
    assertThat(r.evidenceId()).isNotNull().isNotEqualTo(OTHER_ID);
    assertThat(r.authentication()).isNotNull();

    R id = r.withEvidenceId(OTHER_ID);
    assertThat(id.evidenceId()).isEqualTo(OTHER_ID);
    assertThat(id.authentication()).isEqualTo(r.authentication());
    assertThat(id).isNotEqualTo(r);
    assertThat(id.withEvidenceId(r.evidenceId())).isEqualTo(r);

    R auth = r.withAuthentication(null);
    assertThat(auth.authentication()).isNull();
    assertThat(auth.evidenceId()).isEqualTo(r.evidenceId());
    assertThat(auth.withAuthentication(r.authentication())).isEqualTo(r);

    assertThat(r.withIdentity(null, null)).isEqualTo(r.withEvidenceId(null).withAuthentication(null));
  }
}
