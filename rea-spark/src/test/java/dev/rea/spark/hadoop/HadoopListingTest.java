package dev.rea.spark.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local listing follows an input that is itself a symbolic link, as {@code rea scan} follows
 * a PATH ({@code find -H}), and no link below it: {@code ~/models} linked to a data disk was one
 * skipped row before.
 */
class HadoopListingTest {
  @TempDir Path tmp;

  private Map<String, HadoopListing.Entry> walk(Path input) {
    Map<String, HadoopListing.Entry> out = new TreeMap<>();
    HadoopListing.walk(input.toString(), new Configuration(),
        e -> out.put(Path.of(URI.create(e.path())).toString(), e));
    return out;
  }

  @Test
  void anInputThatIsALinkIsFollowedAndLinksBelowItAreNot() throws Exception {
    Path disk = Files.createDirectories(tmp.resolve("disk/models"));
    Files.write(disk.resolve("a.gguf"), new byte[] {1});
    Files.write(Files.createDirectories(disk.resolve("sub")).resolve("b.safetensors"),
        new byte[] {2});
    Path elsewhere = Files.write(tmp.resolve("elsewhere.gguf"), new byte[] {3});
    Files.createSymbolicLink(disk.resolve("link.gguf"), elsewhere);
    Path models = Files.createSymbolicLink(tmp.resolve("models"), disk);

    Map<String, HadoopListing.Entry> got = walk(models);
    assertThat(got.keySet()).containsExactly(
        models.resolve("a.gguf").toString(),
        models.resolve("link.gguf").toString(),
        models.resolve("sub/b.safetensors").toString());
    assertThat(got.get(models.resolve("a.gguf").toString()).kind())
        .isEqualTo(HadoopListing.Kind.FILE);
    assertThat(got.get(models.resolve("sub/b.safetensors").toString()).kind())
        .isEqualTo(HadoopListing.Kind.FILE);
    HadoopListing.Entry below = got.get(models.resolve("link.gguf").toString());
    assertThat(below.kind()).isEqualTo(HadoopListing.Kind.SKIPPED);
    assertThat(below.message()).contains("symbolic link");

    // A file input that is a link is read through; one that leads nowhere is not found.
    Path fileLink = Files.createSymbolicLink(tmp.resolve("one.gguf"), elsewhere);
    assertThat(walk(fileLink).get(fileLink.toString()).kind()).isEqualTo(HadoopListing.Kind.FILE);
    Path dangling = Files.createSymbolicLink(tmp.resolve("gone.gguf"), tmp.resolve("nothing"));
    List<HadoopListing.Entry> level = new ArrayList<>(
        HadoopListing.listLevel(dangling.toString(), new Configuration()));
    assertThat(level).hasSize(1);
    assertThat(level.get(0).kind()).isEqualTo(HadoopListing.Kind.FAILED);
    assertThat(level.get(0).constraint()).isEqualTo("not_found");
  }
}
