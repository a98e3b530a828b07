package dev.rea.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A front door {@linkplain Rea.Builder#confinedTo confined} to a directory reads the same as an
 * unconfined one below it, and never reads through a directory of it that was swapped for a link
 * to an outside directory holding files of the same names and sizes (the scan race: the swap
 * here is its end state, found between the examination and the open).
 */
class ConfinedReadTest {
  @TempDir Path tmp;

  private static final Path SAMPLE = repository().resolve("samples/sample-mixed.gguf");

  private static Path repository() {
    Path here = Paths.get("").toAbsolutePath();
    return Files.exists(here.resolve("samples")) ? here : here.getParent();
  }

  @Test
  void aConfinedFrontDoorReadsAsAnyOther() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root/d"));
    Path model = Files.copy(SAMPLE, root.resolve("m.gguf"));
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(root.resolve("ckpt"), 2, 2);
    InspectOptions options = InspectOptions.builder().build();
    Rea plain = Rea.builder().home(tmp.resolve("home")).build();
    Rea confined =
        Rea.builder().home(tmp.resolve("home")).confinedTo(List.of(tmp.resolve("root"))).build();

    Inspection a = plain.inspect(model, options);
    Inspection b = confined.inspect(model, options);
    assertThat(b).isInstanceOf(Inspection.Complete.class);
    assertThat(((Inspection.Complete) b).record().artifact())
        .isEqualTo(((Inspection.Complete) a).record().artifact());
    assertThat(confined.probe(model).candidateFormat()).isEqualTo(plain.probe(model).candidateFormat());

    SetInspection sa = plain.inspectSet(c.index, options);
    SetInspection sb = confined.inspectSet(c.index, options);
    assertThat(sb).isInstanceOf(SetInspection.Complete.class);
    assertThat(((SetInspection.Complete) sb).set().set())
        .isEqualTo(((SetInspection.Complete) sa).set().set());
  }

  @Test
  void aDirectorySwappedForALinkOutIsNeverReadThrough() throws IOException {
    Path inside = Files.createDirectories(tmp.resolve("root/d"));
    Path outside = Files.createDirectories(tmp.resolve("outside/d"));
    Files.copy(SAMPLE, inside.resolve("m.gguf"));
    byte[] secret = Files.readAllBytes(SAMPLE);
    Files.write(outside.resolve("m.gguf"), secret);
    SetFixtures.checkpoint(inside.resolve("ckpt"), 2, 2);
    SetFixtures.checkpoint(outside.resolve("ckpt"), 2, 2);
    Rea confined =
        Rea.builder().home(tmp.resolve("home")).confinedTo(List.of(tmp.resolve("root"))).build();
    InspectOptions options = InspectOptions.builder().build();

    Files.move(inside, tmp.resolve("root/d.real"));
    Files.createSymbolicLink(inside, outside);

    // Unconfined, the same path reads the outside file as complete.
    assertThat(Rea.builder().home(tmp.resolve("home")).build().inspect(inside.resolve("m.gguf"), options))
        .isInstanceOf(Inspection.Complete.class);
    Inspection file = confined.inspect(inside.resolve("m.gguf"), options);
    assertThat(file).isInstanceOf(Inspection.Failed.class);
    Inspection.Failed failed = (Inspection.Failed) file;
    assertThat(failed.error().constraint()).isEqualTo(Constraint.IO_ERROR);
    assertThat(failed.error().getMessage()).contains("leads out of the scanned directories");
    assertThat(failed.partial()).isNull();

    SetInspection set = confined.inspectSet(inside.resolve("ckpt/model.safetensors.index.json"), options);
    assertThat(set).isInstanceOf(SetInspection.Failed.class);
    SetInspection.Failed setFailed = (SetInspection.Failed) set;
    assertThat(setFailed.error().getMessage()).contains("leads out of the scanned directories");
    assertThat(setFailed.partial()).isNull();
  }
}
