package dev.rea.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A scratch directory outlives no JVM: a child JVM creates one holding a private-key-like file
 * and a subdirectory it made read-only, and exits; the directory is gone afterwards.
 */
class ScratchDirectoriesTest {

  /** The child: creates the tree, prints its root, exits normally. */
  public static final class Child {
    private Child() {}

    /**
     * Creates the scratch tree and prints its path.
     *
     * @param args unused
     * @throws Exception when the tree cannot be made
     */
    public static void main(String[] args) throws Exception {
      Path home = ScratchDirectories.createDeletedAtExit("rea-scratch-test");
      Files.writeString(home.resolve("signing-key.pem"), "not a real key");
      Files.setPosixFilePermissions(
          home.resolve("signing-key.pem"), PosixFilePermissions.fromString("r--------"));
      Path locked = Files.createDirectory(home.resolve("trusted"));
      Files.writeString(locked.resolve("colleague.pub.pem"), "not a real key");
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
      System.out.println(home);
    }
  }

  @Test
  void theDirectoryAndEverythingInItAreDeletedWhenTheJvmEnds() throws Exception {
    ChildJvm.Result r = ChildJvm.run(List.of(), Child.class, 120);
    assertThat(r.exit()).as(r.output()).isZero();
    Path home = Path.of(r.output().lines().reduce((a, b) -> b).orElseThrow());
    assertThat(home.getFileName().toString()).startsWith("rea-scratch-test");
    assertThat(home).doesNotExist();
  }
}
