package dev.rea.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trailing '/' that {@link Path} drops still means "a directory", as the system reads it. */
class SelectedPathTest {
  @TempDir Path dir;

  @Test
  void aSlashAfterAFileOrNothingIsRefusedAndAfterADirectoryOrNoSlashGoesOn() throws Exception {
    Path file = Files.write(dir.resolve("m.gguf"), new byte[] {1});
    String slashed = file + "/";
    assertThat(Path.of(slashed)).isEqualTo(file); // what Path drops
    ReaException e =
        catchThrowableOfType(
            ReaException.class, () -> SelectedPath.checkTrailingSlash("PATH", slashed, Path.of(slashed)));
    assertThat(e.code()).isEqualTo(ErrorCode.TARGET_UNAVAILABLE);
    assertThat(e.constraint()).isEqualTo(Constraint.NOT_FOUND);
    assertThat(e.field()).isEqualTo("PATH");
    assertThat(e.path()).isEqualTo(slashed);
    assertThat(e.getMessage())
        .isEqualTo(
            "not a directory: "
                + slashed
                + " (a path ending in '/' names a directory, and this one is not a directory)");

    String missing = dir + "/absent.gguf/";
    assertThat(
            catchThrowableOfType(
                    ReaException.class,
                    () -> SelectedPath.checkTrailingSlash("path", missing, Path.of(missing)))
                .getMessage())
        .endsWith("and this one is not a directory)");

    // No slash, a directory with a slash, and the root: left to the inspection.
    SelectedPath.checkTrailingSlash("PATH", file.toString(), file);
    SelectedPath.checkTrailingSlash("PATH", dir + "/", Path.of(dir + "/"));
    SelectedPath.checkTrailingSlash("PATH", "/", Path.of("/"));
  }
}
