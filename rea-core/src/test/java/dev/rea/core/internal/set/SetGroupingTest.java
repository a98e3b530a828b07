package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Grouping one directory's listing into models (CONTRACT sections 9 and 10). */
class SetGroupingTest {
  private static final Limits LIMITS = Limits.defaults();

  private static SetGrouping.Indexes indexes(Map<String, String> texts) {
    return SetGrouping.fromStreams(name -> {
      String t = texts.get(name);
      if (t == null) {
        throw ReaException.builder(Constraint.NOT_FOUND, "no " + name).build();
      }
      return new java.io.ByteArrayInputStream(t.getBytes(StandardCharsets.UTF_8));
    }, LIMITS);
  }

  /** An index the heap cannot hold is that index's failure; the other units are grouped. */
  @Test
  void anIndexTooLargeForTheHeapIsItsOwnFailure() {
    List<SetGrouping.Listed> listing =
        List.of(
            new SetGrouping.Listed("huge.safetensors.index.json", null),
            new SetGrouping.Listed("tiny.gguf", "gguf"));
    List<SetUnit> units =
        SetGrouping.group(
            listing,
            name -> {
              throw new OutOfMemoryError("Java heap space");
            });
    assertThat(units).extracting(SetUnit::anchor)
        .containsExactly("huge.safetensors.index.json", "tiny.gguf");
    ReaException e = units.get(0).error();
    assertThat(e).isNotNull();
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.getMessage()).contains("Java heap");
  }

  @Test
  void anIndexASplitSetAndLooseFilesAreSeparateUnits() {
    List<SetGrouping.Listed> listing =
        List.of(
            new SetGrouping.Listed("README.md", null),
            new SetGrouping.Listed("model-00002-of-00002.safetensors", "safetensors"),
            new SetGrouping.Listed("model.safetensors.index.json", null),
            new SetGrouping.Listed("model-00001-of-00002.safetensors", "safetensors"),
            new SetGrouping.Listed("q-00002-of-00003.gguf", "gguf"),
            new SetGrouping.Listed("q-00001-of-00003.gguf", "gguf"),
            new SetGrouping.Listed("adapter.safetensors", "safetensors"),
            new SetGrouping.Listed("fake-00001-of-00002.gguf", null),
            new SetGrouping.Listed("tiny.gguf", "gguf"));
    String index =
        "{\"weight_map\":{\"a\":\"model-00001-of-00002.safetensors\","
            + "\"b\":\"model-00002-of-00002.safetensors\"}}";
    List<SetUnit> units =
        SetGrouping.group(
            listing, indexes(Map.of("model.safetensors.index.json", index)));
    assertThat(units)
        .extracting(SetUnit::anchor)
        .containsExactly(
            "adapter.safetensors", "model.safetensors.index.json", "q-00001-of-00003.gguf",
            "tiny.gguf");
    assertThat(units).extracting(SetUnit::kind)
        .containsExactly(SetKind.SINGLE_FILE, SetKind.SAFETENSORS_INDEX, SetKind.GGUF_SPLIT,
            SetKind.SINGLE_FILE);
    assertThat(units.get(1).members())
        .containsExactly("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors");
    // The split set names all three members, the absent third included.
    assertThat(units.get(2).members())
        .containsExactly("q-00001-of-00003.gguf", "q-00002-of-00003.gguf", "q-00003-of-00003.gguf");
  }

  @Test
  void anIndexThatCannotBeReadIsAUnitWithItsError() {
    List<SetUnit> units =
        SetGrouping.group(
            List.of(new SetGrouping.Listed("m.safetensors.index.json", null)),
            indexes(Map.of("m.safetensors.index.json", "{\"weight_map\":{\"t\":\"../x\"}}")));
    assertThat(units).hasSize(1);
    assertThat(units.get(0).error()).isNotNull();
    assertThat(units.get(0).error().constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
    assertThat(units.get(0).members()).isEmpty();
  }

  @Test
  void aFileNamesItsOwnUnit() {
    SetGrouping.Indexes none = indexes(Map.of());
    assertThat(SetGrouping.unitOf("x-00002-of-00002.gguf", "gguf", none).members())
        .containsExactly("x-00001-of-00002.gguf", "x-00002-of-00002.gguf");
    assertThat(SetGrouping.unitOf("x-00002-of-00002.gguf", "safetensors", none).kind())
        .isEqualTo(SetKind.SINGLE_FILE);
    assertThat(SetGrouping.unitOf("one.gguf", "gguf", none).members())
        .containsExactly("one.gguf");
  }

  @Test
  void aDirectoryMustHoldExactlyOneModel() throws ReaException {
    SetUnit one = SetUnit.single("a.gguf");
    assertThat(SetGrouping.only(List.of(one), "/d")).isSameAs(one);
    assertThatThrownBy(() -> SetGrouping.only(List.of(one, SetUnit.single("b.gguf")), "/d"))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.AMBIGUOUS_SET);
              assertThat(e.diagnostics().get("units")).isEqualTo(List.of("a.gguf", "b.gguf"));
              assertThat(e.getMessage()).contains("a.gguf, b.gguf");
            });
    assertThatThrownBy(() -> SetGrouping.only(List.of(), "/d"))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.UNSUPPORTED_FORMAT));
  }
}
