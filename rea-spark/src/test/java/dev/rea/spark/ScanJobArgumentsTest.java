package dev.rea.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.options.HashMode;
import dev.rea.spark.hadoop.HadoopSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ScanJob's command line: what it accepts, and the message of each refusal (exit status 2). */
class ScanJobArgumentsTest {
  @Test
  void everyOptionIsRead() {
    ScanJob.Arguments a =
        ScanJob.Arguments.parse(
            new String[] {
              "hdfs://nn/a", "--output", "out", "/b", "--hash", "full", "--list-skipped",
              "--files-per-task", "250", "--read-ahead", "65536", "--overwrite"
            });
    assertThat(a.inputs()).containsExactly("hdfs://nn/a", "/b");
    assertThat(a.output()).isEqualTo("out");
    assertThat(a.options()).isEqualTo(new ScanOptions(HashMode.FULL, true, 250, 65536));
    assertThat(a.overwrite()).isTrue();
    ScanJob.Arguments plain = ScanJob.Arguments.parse(new String[] {"in", "--output", "o"});
    assertThat(plain.options()).isEqualTo(ScanOptions.defaults());
    assertThat(plain.overwrite()).isFalse();
  }

  @Test
  void invalidCommandLinesAreRefusedWithAReason() {
    for (List<String> args :
        List.of(
            List.of("--output", "o"),
            List.of("in"),
            List.of("in", "--output"),
            List.of("in", "--output", "o", "--hash", "partial"),
            List.of("in", "--output", "o", "--files-per-task", "0"),
            List.of("in", "--output", "o", "--read-ahead", "-1"),
            List.of("in", "--output", "o", "--read-ahead", String.valueOf(HadoopSource.MAX_READ_AHEAD + 1)),
            List.of("in", "--output", "o", "--jobs", "2"))) {
      assertThatThrownBy(() -> ScanJob.Arguments.parse(args.toArray(String[]::new)))
          .as(args.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageFindingMatch("INPUT|--output|--hash|--files-per-task|--read-ahead|unknown option");
    }
  }
}
