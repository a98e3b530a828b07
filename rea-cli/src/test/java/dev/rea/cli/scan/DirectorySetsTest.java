package dev.rea.cli.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.SetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DirectorySets}: a directory's files are held until its listing ends and grouped as
 * {@code inspect-model-set} groups them; past the bound, files that cannot be members by name
 * are handed over at once.
 */
class DirectorySetsTest {
  @TempDir Path dir;

  private static ListedFile listed(Path p) throws Exception {
    return new ListedFile(p, FileIdentity.observed(1L, 2L, Files.size(p), Instant.EPOCH));
  }

  private static List<String> describe(List<ScanUnit> units) {
    List<String> out = new ArrayList<>();
    for (ScanUnit u : units) {
      out.add(u.kind().wire() + " " + u.path().getFileName() + " " + u.members().size());
    }
    return out;
  }

  @Test
  void anIndexAndItsShardsAreOneUnitAndOtherFilesAreAlone() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1);
    Path other = Files.writeString(dir.resolve("README.md"), "text");
    Path split = SetFixtures.ggufSplit(dir, "s", 2, 1, 1).get(1); // the first member's listed too
    List<ScanUnit> units = new ArrayList<>();
    UnitGrouping.DirectoryUnits d = new DirectorySets(Limits.defaults(), List.of(dir)).directory(dir);
    List<Path> listing = new ArrayList<>(c.shards);
    listing.add(other);
    listing.add(c.index);
    listing.add(split);
    listing.add(dir.resolve("s-00001-of-00002.gguf"));
    for (Path p : listing) {
      d.file(listed(p), units::add);
    }
    assertThat(units).as("nothing handed over before the listing ends").isEmpty();
    d.end(units::add);
    assertThat(describe(units))
        .containsExactly(
            "file README.md 1",
            "set model.safetensors.index.json 3",
            "set s-00001-of-00002.gguf 2");
    ScanUnit set = units.get(1);
    assertThat(set.members().get(0).path()).isEqualTo(c.index);
    assertThat(set.members().subList(1, 3).stream().map(ListedFile::path).toList())
        .containsExactlyElementsOf(c.shards);
  }

  @Test
  void pastTheBoundFilesThatCannotBeMembersGoAtOnce() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1);
    List<ScanUnit> units = new ArrayList<>();
    UnitGrouping.DirectoryUnits d = new DirectorySets(Limits.defaults(), List.of(dir), 2).directory(dir);
    for (Path p : c.shards) {
      d.file(listed(p), units::add);
    }
    Path a = Files.writeString(dir.resolve("a.txt"), "a");
    Path b = Files.writeString(dir.resolve("b.gguf"), "b");
    d.file(listed(a), units::add);
    d.file(listed(b), units::add);
    // Two held (the shards); a.txt and b.gguf cannot be members by name: handed over at once.
    assertThat(describe(units)).containsExactly("file a.txt 1", "file b.gguf 1");
    d.file(listed(c.index), units::add); // held: an index name
    d.end(units::add);
    assertThat(describe(units))
        .containsExactly("file a.txt 1", "file b.gguf 1", "set model.safetensors.index.json 3");
  }
}
