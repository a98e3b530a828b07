package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Rea;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A set's readable report fits a terminal's width, and a pipe gets whole lines. */
class SetReportWidthTest {
  @TempDir Path dir;

  private String report(SetInspection.Complete c, Screen screen) {
    StringWriter text = new StringWriter();
    try (PrintWriter out = new PrintWriter(text)) {
      new SetReport(out, screen).print(c.set(), c.checksPassed(), null);
    }
    return text.toString();
  }

  @Test
  void everyLineFitsEightyColumnsAndAPipeKeepsLongNamesWhole() throws Exception {
    Path long1 = Files.createDirectory(dir.resolve("d"));
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(long1, 3, 2);
    // Shards renamed with a long prefix, as some exporters write them, and the index to match.
    String prefix = "a-rather-long-exported-checkpoint-name-for-this-test";
    String index = Files.readString(c.index);
    for (Path shard : c.shards) {
      String name = shard.getFileName().toString();
      String renamed = prefix + name.substring("model".length());
      Files.move(shard, shard.resolveSibling(renamed));
      index = index.replace(name, renamed);
    }
    Files.writeString(c.index, index);
    SetInspection.Complete set =
        Rea.standard().inspectSet(c.index, InspectOptions.defaults()).orThrow();
    String fitted = report(set, Screen.of(80));
    for (String line : fitted.split("\n")) {
      assertThat(TextTable.columns(line)).as(line).isLessThanOrEqualTo(80);
    }
    assertThat(fitted).contains(set.set().set().index().sha256());
    String piped = report(set, Screen.UNLIMITED);
    assertThat(piped).contains(prefix + "-00001-of-00003.safetensors");
    assertThat(List.of(piped.split("\n"))).anyMatch(l -> TextTable.columns(l) > 80);
  }
}
