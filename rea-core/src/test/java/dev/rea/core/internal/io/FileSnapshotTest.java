package dev.rea.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link FileSnapshot#changesTo} names exactly what the identity check found different. */
class FileSnapshotTest {
  private static FileSnapshot snap(long size, long inode, long mtime, Long ctime) {
    return new FileSnapshot(
        true, false, size, 7L, inode, mtime, "t" + mtime, ctime);
  }

  @Test
  void namesEachDifferenceAndNothingElse() {
    FileSnapshot before = snap(100, 1, 10, 20L);
    assertThat(before.changesTo(snap(100, 1, 10, 20L))).isNull();
    assertThat(before.changesTo(snap(100, 1, 10, 21L))).isEqualTo("inode change time");
    assertThat(before.changesTo(snap(100, 1, 11, 20L))).isEqualTo("modification time (t10, now t11)");
    assertThat(before.changesTo(snap(90, 1, 10, 20L))).isEqualTo("size (100 bytes, now 90)");
    assertThat(before.changesTo(snap(90, 1, 11, 21L)))
        .isEqualTo("size (100 bytes, now 90), modification time (t10, now t11) and inode change time");
    assertThat(before.changesTo(snap(100, 1, 11, 21L)))
        .isEqualTo("modification time (t10, now t11) and inode change time");
    // Another file at the path: its other attributes say nothing about this one.
    assertThat(before.changesTo(snap(90, 2, 11, 21L)))
        .isEqualTo("identity (device and inode: the path now names another file)");
    for (FileSnapshot later :
        new FileSnapshot[] {snap(90, 1, 10, 20L), snap(100, 2, 10, 20L), snap(100, 1, 10, null)}) {
      assertThat(before.sameIdentity(later)).isFalse();
      assertThat(before.changesTo(later)).isNotNull();
    }
  }
}
