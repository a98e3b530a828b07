package dev.rea.cli.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The line of CONTRACT section 10, and the progress line's width. */
class ScanLineTest {
  @Test
  void aFailedLineCarriesTheInnerErrorObjectAndNullsAndEndsWithOneNewline() {
    ReaException e =
        ReaException.builder(Constraint.IO_ERROR, "reading failed: Input/output error")
            .path("/m/a\nb.gguf")
            .offset(4096)
            .diagnostic("reason", "Input/output error")
            .build();
    String line =
        new String(
            ScanLine.render(
                ScanUnit.Kind.FILE,
                "/m/a\nb.gguf",
                UnitStatus.FAILED,
                FileIdentity.observed(null, null, 8192, Instant.parse("2025-01-01T00:00:00Z")),
                null,
                null,
                e),
            StandardCharsets.UTF_8);
    assertThat(line)
        .isEqualTo(
            "{\"schema\":\"rea.scan.v1\",\"kind\":\"file\",\"path\":\"/m/a\\nb.gguf\","
                + "\"status\":\"failed\",\"identity\":{\"device\":null,\"inode\":null,"
                + "\"size\":\"8192\",\"modified\":\"2025-01-01T00:00:00.000000000Z\"},"
                + "\"evidence_id\":null,\"summary\":null,\"error\":{\"code\":\"execution_failure\","
                + "\"category\":\"host_failure\",\"constraint\":\"io_error\","
                + "\"message\":\"reading failed: Input/output error\",\"details\":{"
                + "\"path\":\"/m/a\\nb.gguf\",\"offset\":\"4096\","
                + "\"diagnostics\":{\"reason\":\"Input/output error\"}}}}\n");
    assertThat(line.indexOf('\n')).isEqualTo(line.length() - 1);
  }

  @Test
  void statusesOfFailures() {
    ReaException changed = ReaException.builder(Constraint.TARGET_CHANGED, "changed").build();
    assertThat(UnitStatus.ofFailure(changed, true)).isEqualTo(UnitStatus.FAILED);
    ReaException io = ReaException.builder(Constraint.IO_ERROR, "eio").build();
    assertThat(UnitStatus.ofFailure(io, true)).isEqualTo(UnitStatus.PARTIAL);
    assertThat(UnitStatus.ofFailure(io, false)).isEqualTo(UnitStatus.FAILED);
    for (Constraint c :
        new Constraint[] {
          Constraint.FILE_FORMAT_REJECTED, Constraint.UNSUPPORTED_VERSION,
          Constraint.HEADER_CEILING, Constraint.NESTING_LIMIT
        }) {
      assertThat(UnitStatus.ofFailure(ReaException.builder(c, "x").build(), false))
          .as(c.wireName())
          .isEqualTo(UnitStatus.REJECTED);
    }
    assertThat(UnitStatus.ofFailure(ReaException.heapExhausted(new OutOfMemoryError("x")), false))
        .isEqualTo(UnitStatus.FAILED);
    assertThat(
            UnitStatus.ofFailure(ReaException.builder(Constraint.PERMISSION_DENIED, "x").build(), false))
        .isEqualTo(UnitStatus.FAILED);
  }

  @Test
  void theProgressLineFitsTheTerminal() {
    String text = new Tally().progress();
    assertThat(text).startsWith("rea scan: 0 units, 0 files (");
    assertThat(ProgressLine.clip(text, 20)).hasSize(19);
    assertThat(ProgressLine.clip("short", 20)).isEqualTo("short");
  }
}
