package dev.rea.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link ConfinedFileAccess} reads: files below its directories as they were when it was
 * made, never a file a swapped-in link leads to outside them. Each swap here is the end state of
 * the race a scan meets (a directory of the tree replaced by a link to an outside directory with
 * a file of the same name and size): the open must fail, never yield the outside bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConfinedFileAccessTest {
  @TempDir Path tmp;
  private Path root;
  private Path outside;

  @BeforeEach
  void tree() throws IOException {
    root = Files.createDirectories(tmp.resolve("root"));
    outside = Files.createDirectories(tmp.resolve("outside"));
    Files.createDirectories(root.resolve("d"));
    Files.createDirectories(outside.resolve("d"));
    Files.writeString(root.resolve("d/m.bin"), "INSIDE");
    Files.writeString(outside.resolve("d/m.bin"), "SECRET");
  }

  private static String read(FileAccess access, Path p) throws IOException {
    try (SeekableByteChannel ch = access.open(p)) {
      ByteBuffer b = ByteBuffer.allocate(64);
      while (ch.read(b) > 0) {
        // read on
      }
      return new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII);
    }
  }

  @Test
  void readsAFileBelowItsDirectory() throws IOException {
    FileAccess access = ConfinedFileAccess.of(List.of(root), List.of());
    assertThat(access).isInstanceOf(ConfinedFileAccess.class);
    Path m = root.resolve("d/m.bin");
    assertThat(read(access, m)).isEqualTo("INSIDE");
    FileSnapshot s = access.stat(m);
    FileSnapshot byPath = FileAccess.system().stat(m);
    // The same identity as a stat by path, inode change time included.
    assertThat(s).isEqualTo(byPath);
    assertThat(access.list(root.resolve("d"))).containsExactly(m);
    assertThat(access.list(root)).containsExactly(root.resolve("d"));
  }

  @Test
  void aDirectorySwappedForALinkToOutsideIsNeverReadThrough() throws IOException {
    FileAccess access = ConfinedFileAccess.of(List.of(root), List.of());
    Path m = root.resolve("d/m.bin");
    Files.move(root.resolve("d"), root.resolve("d.real"));
    Files.createSymbolicLink(root.resolve("d"), outside.resolve("d"));
    // A read by path would give SECRET: same name, same size.
    assertThat(read(FileAccess.system(), m)).isEqualTo("SECRET");
    assertThatThrownBy(() -> read(access, m))
        .isInstanceOf(FileSystemException.class)
        .hasMessageContaining("leads out of the scanned directories");
    assertThatThrownBy(() -> access.list(root.resolve("d")))
        .isInstanceOf(FileSystemException.class)
        .hasMessageContaining("leads out");
    // A link that leads back inside is followed: the file is the inside one.
    Files.delete(root.resolve("d"));
    Files.createSymbolicLink(root.resolve("d"), Path.of("d.real"));
    assertThat(read(access, m)).isEqualTo("INSIDE");
  }

  @Test
  void aDirectoryOpenedBeforeTheSwapIsReadAsItWas() throws IOException {
    FileAccess access = ConfinedFileAccess.of(List.of(root), List.of());
    Path m = root.resolve("d/m.bin");
    assertThat(read(access, m)).isEqualTo("INSIDE");
    Files.move(root.resolve("d"), root.resolve("d.real"));
    Files.createSymbolicLink(root.resolve("d"), outside.resolve("d"));
    // Kept open since: the directory the path named then, inside the tree.
    assertThat(read(access, m)).isEqualTo("INSIDE");
    assertThat(access.list(root.resolve("d"))).containsExactly(m);
  }

  @Test
  void atMostItsCapacityOfDirectoriesIsKeptOpen() throws IOException {
    int n = DirectoryCache.CAPACITY + 10;
    for (int i = 0; i < n; i++) {
      Path d = Files.createDirectories(root.resolve("many/d" + i));
      Files.writeString(d.resolve("f"), "F" + i);
    }
    ConfinedFileAccess access = (ConfinedFileAccess) ConfinedFileAccess.of(List.of(root), List.of());
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < n; i++) {
        assertThat(read(access, root.resolve("many/d" + i + "/f"))).isEqualTo("F" + i);
      }
    }
    assertThat(access.keptOpen()).isEqualTo(DirectoryCache.CAPACITY);
  }

  @Test
  void aReplacedDirectoryIsRefused() throws IOException {
    FileAccess access = ConfinedFileAccess.of(List.of(root), List.of());
    Files.move(root, tmp.resolve("root.old"));
    Files.createDirectories(root.resolve("d"));
    Files.writeString(root.resolve("d/m.bin"), "OTHERS");
    assertThatThrownBy(() -> read(access, root.resolve("d/m.bin")))
        .isInstanceOf(FileSystemException.class)
        .hasMessageContaining("was replaced");
    assertThatThrownBy(() -> access.list(root))
        .isInstanceOf(FileSystemException.class)
        .hasMessageContaining("was replaced");
  }

  @Test
  void aFileLinkIsFollowedOnlyIntoATree() throws IOException {
    Path other = Files.createDirectories(tmp.resolve("blobs"));
    Files.writeString(other.resolve("b1"), "BLOB");
    Files.createSymbolicLink(root.resolve("d/in"), Path.of("m.bin"));
    Files.createSymbolicLink(root.resolve("d/blob"), other.resolve("b1"));
    Files.createSymbolicLink(root.resolve("d/out"), outside.resolve("d/m.bin"));
    Files.createSymbolicLink(root.resolve("d/nowhere"), tmp.resolve("missing"));
    Files.createSymbolicLink(root.resolve("d/dir"), outside.resolve("d"));
    FileAccess access = ConfinedFileAccess.of(List.of(root, other), List.of());
    assertThat(read(access, root.resolve("d/in"))).isEqualTo("INSIDE");
    assertThat(read(access, root.resolve("d/blob"))).isEqualTo("BLOB");
    assertThatThrownBy(() -> read(access, root.resolve("d/out")))
        .hasMessageContaining("leads out");
    // Examined as a read by path examines them: the outside file's kind, never its bytes.
    assertThat(access.stat(root.resolve("d/out")).regularFile()).isTrue();
    assertThat(access.stat(root.resolve("d/dir")).directory()).isTrue();
    assertThatThrownBy(() -> access.stat(root.resolve("d/nowhere")))
        .isInstanceOf(NoSuchFileException.class);
  }

  /**
   * A Hugging Face repository's blobs/, read as a strict tree: a link swapped in for it, when
   * the access is made or later, never makes the outside directory a tree.
   */
  @Test
  void aStrictDirectoryIsNeverReachedThroughALink() throws IOException {
    Path repo = Files.createDirectories(tmp.resolve("models--o--n"));
    Path snap = Files.createDirectories(repo.resolve("snapshots/rev"));
    Path blobs = Files.createDirectories(repo.resolve("blobs"));
    Files.writeString(blobs.resolve("b1"), "INSIDE");
    Files.writeString(outside.resolve("b1"), "SECRET");
    Files.createSymbolicLink(snap.resolve("m.bin"), Path.of("../../blobs/b1"));
    Path m = snap.resolve("m.bin");
    assertThat(read(ConfinedFileAccess.of(List.of(snap), List.of(blobs)), m)).isEqualTo("INSIDE");

    // Swapped before the access is made: blobs/ is no tree, and the link leads out.
    Files.move(blobs, repo.resolve("blobs.real"));
    Files.createSymbolicLink(blobs, outside);
    FileAccess made = ConfinedFileAccess.of(List.of(snap), List.of(blobs));
    assertThatThrownBy(() -> read(made, m)).hasMessageContaining("leads out");

    // Swapped after: the blobs/ recorded is not the one the link now names.
    Files.delete(blobs);
    Files.move(repo.resolve("blobs.real"), blobs);
    FileAccess before = ConfinedFileAccess.of(List.of(snap), List.of(blobs));
    Files.move(blobs, repo.resolve("blobs.real"));
    Files.createSymbolicLink(blobs, outside);
    assertThatThrownBy(() -> read(before, m)).isInstanceOf(FileSystemException.class);
  }

  @Test
  void failuresNameTheWholePath() throws IOException {
    FileAccess access = ConfinedFileAccess.of(List.of(root), List.of());
    Path missing = root.resolve("d/none.bin");
    assertThatThrownBy(() -> access.stat(missing))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessage(missing.toString());
    Path under = root.resolve("d/m.bin/x");
    assertThatThrownBy(() -> access.stat(under))
        .isInstanceOf(NotDirectoryException.class)
        .hasMessage(under.toString());
    Files.createSymbolicLink(root.resolve("loop"), Path.of("loop"));
    assertThatThrownBy(() -> access.open(root.resolve("loop")))
        .isInstanceOf(FileSystemException.class)
        .hasMessageContaining("Too many levels of symbolic links");
  }

  @Test
  void aPathInNoTreeIsReadByPath() throws IOException {
    FileAccess access = ConfinedFileAccess.of(List.of(root), List.of());
    assertThat(read(access, outside.resolve("d/m.bin"))).isEqualTo("SECRET");
    // Nothing to confine to: the system access itself.
    assertThat(ConfinedFileAccess.of(List.of(root.resolve("d/m.bin")), List.of()))
        .isSameAs(FileAccess.system());
  }

  @Test
  void anOpenThatBlocksEndsAfterTheTimeout() throws Exception {
    Path fifo = root.resolve("d/fifo");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo");
    FileAccess access = ConfinedFileAccess.of(List.of(root), List.of(), 300);
    assertThatThrownBy(() -> access.open(fifo))
        .isInstanceOf(FileSystemException.class)
        .hasMessageContaining("did not complete within 300 ms");
    // A writer lets the abandoned open finish; the opener closes what it got (so nothing is
    // written: the pipe may already have no reader).
    Files.newOutputStream(fifo).close();
  }
}
