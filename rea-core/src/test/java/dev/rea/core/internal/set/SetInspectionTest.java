package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Model sets as upstream tools write them, inspected through the front door (CONTRACT 9). */
class SetInspectionTest {
  @TempDir Path dir;

  private final Rea rea = Rea.standard();

  private SetInspection.Complete complete(Path p) {
    SetInspection r = rea.inspectSet(p, InspectOptions.defaults());
    if (r instanceof SetInspection.Failed f) {
      throw new AssertionError(f.error().getMessage(), f.error());
    }
    return (SetInspection.Complete) r;
  }

  @Test
  void aContradictionNamesALongTensorByItsStartAndLength() throws Exception {
    String longName = "t".repeat(10_000);
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1,
        (s, b) -> { if (s == 2) { b.tensor(longName, "F16", 4, 8); } }, m -> {});
    SetInspection.Failed f = (SetInspection.Failed) rea.inspectSet(c.index, InspectOptions.defaults());
    assertThat(f.error().constraint()).isEqualTo(Constraint.SET_REJECTED);
    assertThat(f.error().getMessage()).contains("(10000 chars)").hasSizeLessThan(2_000);
    assertThat(f.error().diagnostics().toString()).doesNotContain("t".repeat(300));
  }

  @Test
  void aShardThatTwoIndexesClaimIsAmbiguous() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1);
    Files.copy(c.index, dir.resolve("other.safetensors.index.json"));
    SetInspection.Failed f =
        (SetInspection.Failed) rea.inspectSet(c.shards.get(0), InspectOptions.defaults());
    assertThat(f.error().constraint()).isEqualTo(Constraint.AMBIGUOUS_SET);
    assertThat(f.error().getMessage())
        .contains("2 safetensors indexes in the directory name model-00001-of-00002.safetensors")
        .contains("model.safetensors.index.json, other.safetensors.index.json");
    // Named by one index, it is that index's set.
    assertThat(complete(c.index).members()).hasSize(2);
  }

  @Test
  void anIndexBesideANamedShardThatIsNoFileIsTheAnswer() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1);
    Files.delete(c.index);
    Files.createDirectory(c.index); // a directory where the index should be
    SetInspection r = rea.inspectSet(c.shards.get(0), InspectOptions.defaults());
    assertThat(r).isInstanceOf(SetInspection.Failed.class);
    SetInspection.Failed f = (SetInspection.Failed) r;
    assertThat(f.error().constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE);
    assertThat(f.error().path()).isEqualTo(c.index.toString());
    Files.delete(c.index);
    Files.createSymbolicLink(c.index, dir.resolve("nowhere.json")); // a dangling link
    SetInspection.Failed g =
        (SetInspection.Failed) rea.inspectSet(c.shards.get(0), InspectOptions.defaults());
    assertThat(g.error().constraint()).isEqualTo(Constraint.NOT_FOUND);
  }

  @Test
  void shardsWhoseIndexIsMissingAreSaidToBeSo() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 3, 2);
    Files.delete(c.index);
    SetInspection.Failed f = (SetInspection.Failed) rea.inspectSet(dir, InspectOptions.defaults());
    assertThat(f.error().constraint()).isEqualTo(Constraint.AMBIGUOUS_SET);
    assertThat(f.error().getMessage())
        .contains("3 files named as shards of model (of 3), but no safetensors index")
        .contains("is it missing?");
    // One shard named alone is inspected alone, and the set says what its name says.
    SetInspection.Complete one = complete(c.shards.get(1));
    assertThat(one.set().set().kind()).isEqualTo("single_file");
    assertThat(one.set().warnings()).extracting(Warning::code).contains("shard_without_index");
    assertThat(one.set().warnings()).filteredOn(w -> w.code().equals("shard_without_index"))
        .singleElement().extracting(Warning::message).asString()
        .contains("shard 2 of 3").contains("model.safetensors.index.json");
    // With its index, no such warning.
    SetFixtures.Checkpoint whole = SetFixtures.checkpoint(Files.createDirectory(dir.resolve("w")), 3, 2);
    assertThat(complete(whole.shards.get(1)).set().warnings())
        .extracting(Warning::code).doesNotContain("shard_without_index");
  }

  @Test
  void aFourShardCheckpointByItsIndex() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 3);
    SetInspection.Complete r = complete(c.index);
    ModelSetRecord s = r.set();
    assertThat(s.schema()).isEqualTo("rea.model-set.v1");
    assertThat(s.status()).isEqualTo("complete");
    assertThat(s.set().kind()).isEqualTo("safetensors_index");
    assertThat(s.set().path()).isEqualTo(c.index.toString());
    assertThat(s.set().index().sha256())
        .isEqualTo(EvidenceIds.sha256Hex(Files.readAllBytes(c.index)));
    assertThat(s.set().index().fileSize()).isEqualTo(Files.size(c.index));
    assertThat(s.set().index().metadata())
        .containsExactly(new ModelSetRecord.IndexEntry("total_size", Long.toString(c.totalBytes), false));
    assertThat(s.members()).extracting(ModelSetRecord.Member::path)
        .containsExactlyElementsOf(c.shards.stream().map(Path::toString).toList());
    assertThat(r.members()).hasSize(4);
    for (int i = 0; i < 4; i++) {
      assertThat(s.members().get(i).evidenceId()).isEqualTo(r.members().get(i).evidenceId());
      assertThat(s.members().get(i).tensorCount()).isEqualTo(3);
    }
    assertThat(s.totals().tensorCount()).isEqualTo(12);
    assertThat(s.totals().parameterCount()).isEqualTo(BigInteger.valueOf(12 * 32));
    assertThat(s.totals().byteLength()).isEqualTo(BigInteger.valueOf(c.totalBytes));
    assertThat(s.types()).hasSize(1);
    assertThat(s.types().get(0).type()).isEqualTo("F16");
    assertThat(s.types().get(0).tensorCount()).isEqualTo(12);
    assertThat(s.warnings()).isEmpty();
    assertThat(s.coverage().header()).isEqualTo("complete");
    assertThat(s.coverage().digest()).isEqualTo("none");
    assertThat(s.evidenceId()).isEqualTo(SetRecordJson.identity(s).evidenceId());
    // The same set named by its directory.
    SetInspection.Complete again = complete(dir);
    assertThat(again.set().members()).extracting(ModelSetRecord.Member::headerSha256)
        .containsExactlyElementsOf(s.members().stream().map(ModelSetRecord.Member::headerSha256).toList());
    assertThat(again.set().request().path()).isEqualTo(dir.toString());
  }

  @Test
  void aShardNamedAloneIsItsCheckpointsMember() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 3, 1);
    SetInspection.Complete r = complete(c.shards.get(1));
    assertThat(r.set().set().kind()).isEqualTo("safetensors_index");
    assertThat(r.set().set().path()).isEqualTo(c.index.toString());
    assertThat(r.set().members()).hasSize(3);
  }

  @Test
  void aShardNamedAloneFailsWithItsCheckpointsMissingShard() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 3, 1);
    Files.delete(c.shards.get(2));
    SetInspection r = rea.inspectSet(c.shards.get(0), InspectOptions.defaults());
    assertThat(r).isInstanceOf(SetInspection.Failed.class);
    assertThat(((SetInspection.Failed) r).error().constraint()).isEqualTo(Constraint.NOT_FOUND);
  }

  /** A download that stopped early lacks many shards: the failure counts them and names some. */
  @Test
  void everyMissingShardIsCounted() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 12, 1);
    for (int k = 2; k < 12; k++) {
      Files.delete(c.shards.get(k));
    }
    SetInspection r = rea.inspectSet(c.index, InspectOptions.defaults());
    ReaException e = ((SetInspection.Failed) r).error();
    assertThat(e.constraint()).isEqualTo(Constraint.NOT_FOUND);
    assertThat(e.getMessage())
        .startsWith("member 2 (model-00003-of-00012.safetensors, of 12 members): ")
        .contains("; 10 of the 12 members are missing: model-00003-of-00012.safetensors, ")
        .contains("model-00010-of-00012.safetensors and 2 more");
    assertThat(e.diagnostics()).containsEntry("missing_members", 10);

    // One missing: said as before, without a count.
    SetFixtures.Checkpoint one = SetFixtures.checkpoint(dir.resolve("one"), 3, 1);
    Files.delete(one.shards.get(1));
    ReaException single =
        ((SetInspection.Failed) rea.inspectSet(one.index, InspectOptions.defaults())).error();
    assertThat(single.getMessage()).doesNotContain("members are missing");
  }

  @Test
  void aShardNobodyMapsIsASetOfOne() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir.resolve("ckpt"), 2, 1);
    Path loose = dir.resolve("ckpt").resolve("extra.safetensors");
    Files.copy(c.shards.get(0), loose);
    SetInspection.Complete r = complete(loose);
    assertThat(r.set().set().kind()).isEqualTo("single_file");
    assertThat(r.set().members()).hasSize(1);
  }

  @Test
  void aSplitMemberNamedOtherwiseIsTakenAloneWithAWarning() throws Exception {
    Path odd = dir.resolve("m-000001-of-000003.gguf");
    Files.write(odd, GgufBuilder.v3()
        .kv("split.no", GgufBuilder.u16(0))
        .kv("split.count", GgufBuilder.u16(3))
        .kv("split.tensors.count", GgufBuilder.i32(3))
        .tensor("blk.0.weight", 0, 8, 2)
        .build().bytes());
    SetInspection.Complete r = complete(odd);
    assertThat(r.set().set().kind()).isEqualTo("single_file");
    assertThat(r.set().warnings()).extracting(Warning::code).contains("split_member_alone");

    // A UINT64 split.count of 2^64-1 is a count of two or more, its bits read as negative.
    Path huge = dir.resolve("huge.gguf");
    Files.write(huge, GgufBuilder.v3()
        .kv("split.count", GgufBuilder.u64(-1L))
        .tensor("blk.0.weight", 0, 8, 2)
        .build().bytes());
    SetInspection.Complete h = complete(huge);
    assertThat(h.set().warnings()).extracting(Warning::code).contains("split_member_alone");
    assertThat(h.set().warnings().get(0).message()).contains("18446744073709551615");
  }

  /** A FIFO with no writer blocks whoever opens it: a set never opens one it is named. */
  @Test
  @org.junit.jupiter.api.Timeout(30)
  void aFifoNamedAsTheSetOrItsIndexIsRefusedWithoutOpeningIt() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        new ProcessBuilder("mkfifo", "--help").start().waitFor() == 0, "mkfifo");
    Path fifo = dir.resolve("model.gguf");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    SetInspection r = rea.inspectSet(fifo, InspectOptions.defaults());
    assertThat(((SetInspection.Failed) r).error().constraint())
        .isEqualTo(Constraint.NOT_REGULAR_FILE);

    Path index = dir.resolve("x").resolve("model.safetensors.index.json");
    Files.createDirectories(index.getParent());
    assertThat(new ProcessBuilder("mkfifo", index.toString()).start().waitFor()).isZero();
    r = rea.inspectSet(index, InspectOptions.defaults());
    assertThat(((SetInspection.Failed) r).error().constraint())
        .isEqualTo(Constraint.NOT_REGULAR_FILE);
  }

  @Test
  void aDirectoryWhoseOnlyIndexIsBrokenSaysWhyNotAmbiguous() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 3, 1);
    Files.writeString(c.index, "{\"weight_map\":{\"t\":\"../elsewhere.safetensors\"}}");
    SetInspection r = rea.inspectSet(dir, InspectOptions.defaults());
    assertThat(r).isInstanceOf(SetInspection.Failed.class);
    ReaException e = ((SetInspection.Failed) r).error();
    assertThat(e.constraint()).isNotEqualTo(Constraint.AMBIGUOUS_SET);
    assertThat(e.getMessage()).contains("../elsewhere.safetensors");
  }

  @Test
  void aGgufSplitSetByAnyMember() {
    List<Path> m = SetFixtures.ggufSplit(dir, "tiny", 3, 2, 2);
    SetInspection.Complete r = complete(m.get(1));
    assertThat(r.set().set().kind()).isEqualTo("gguf_split");
    assertThat(r.set().set().path()).isEqualTo(m.get(0).toString());
    assertThat(r.set().set().index()).isNull();
    assertThat(r.set().members()).extracting(ModelSetRecord.Member::path)
        .containsExactlyElementsOf(m.stream().map(Path::toString).toList());
    assertThat(r.set().totals().tensorCount()).isEqualTo(6);
    assertThat(r.set().warnings()).isEmpty();
    assertThat(r.checksPassed()).contains("split.no, split.count and split.tensors.count agree");
  }

  @Test
  void aFirstMemberWithoutTensorsIsAllowed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "nofirst", 3, 0, 2);
    SetInspection.Complete r = complete(m.get(0));
    assertThat(r.set().members().get(0).tensorCount()).isZero();
    assertThat(r.set().totals().tensorCount()).isEqualTo(4);
  }

  @Test
  void aDirectoryOfTwoModelsIsAmbiguous() {
    SetFixtures.ggufSplit(dir, "a", 2, 1, 1);
    SetFixtures.checkpoint(dir, 2, 1);
    SetInspection.Failed f = (SetInspection.Failed) rea.inspectSet(dir, InspectOptions.defaults());
    assertThat(f.error().constraint()).isEqualTo(Constraint.AMBIGUOUS_SET);
    assertThat(f.error().diagnostics().get("units"))
        .isEqualTo(List.of("a-00001-of-00002.gguf", "model.safetensors.index.json"));
  }

  /** An index that reads as 0 bytes but yields some (a /proc file) is no regular file. */
  @Test
  void anIndexOfSizeZeroThatYieldsBytesIsNotARegularFile() throws Exception {
    Path proc = Path.of("/proc/self/status");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(proc) && Files.size(proc) == 0);
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1);
    Files.delete(c.index);
    Files.createSymbolicLink(c.index, proc);
    SetInspection.Failed f = (SetInspection.Failed) rea.inspectSet(c.index, InspectOptions.defaults());
    assertThat(f.error().constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE);
    assertThat(f.error().getMessage()).contains("size reads as 0 but it yields bytes");
  }

  @Test
  void aMissingMemberFailsTheSetNamingIt() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "gap", 3, 1, 1);
    Files.delete(m.get(2));
    SetInspection.Failed f = (SetInspection.Failed) rea.inspectSet(m.get(0), InspectOptions.defaults());
    assertThat(f.error().constraint()).isEqualTo(Constraint.NOT_FOUND);
    assertThat(f.error().path()).isEqualTo(m.get(2).toString());
    assertThat(f.error().getMessage()).startsWith("member 2 (gap-00003-of-00003.gguf, of 3 members)");
    assertThat(f.partial().status()).isEqualTo("partial");
    assertThat(f.partial().members()).hasSize(2);
    assertThat(f.members()).hasSize(2);

    // A file alone that is not there: a set of one, in the singular.
    SetInspection.Failed none =
        (SetInspection.Failed) rea.inspectSet(dir.resolve("none.gguf"), InspectOptions.defaults());
    assertThat(none.error().getMessage()).startsWith("member 0 (none.gguf, of 1 member): ");
  }

  // ---------------------------------------------------------------- contradictions, one each

  /** Inspects, expects set_rejected with exactly one contradiction, returns it. */
  private Map<?, ?> onlyContradiction(Path p) {
    SetInspection r = rea.inspectSet(p, InspectOptions.defaults());
    assertThat(r).isInstanceOf(SetInspection.Failed.class);
    ReaException e = ((SetInspection.Failed) r).error();
    assertThat(e.constraint()).as(e.getMessage()).isEqualTo(Constraint.SET_REJECTED);
    assertThat(e.code().wireName()).isEqualTo("target_unavailable");
    assertThat(e.category().wireName()).isEqualTo("unsupported_target");
    List<?> list = (List<?>) e.diagnostics().get("contradictions");
    assertThat(list).as(e.getMessage()).hasSize(1);
    assertThat(e.diagnostics().get("contradiction_count")).isEqualTo(1);
    Map<?, ?> c = (Map<?, ?>) list.get(0);
    assertThat(e.path()).isEqualTo(c.get("path"));
    assertThat(e.field()).isEqualTo(c.get("field"));
    assertThat(e.getMessage()).contains((String) c.get("field"));
    return c;
  }

  @Test
  void aTensorMappedButAbsentIsNamed() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 2, (s, b) -> {},
        map -> map.put("ghost.weight", "model-00003-of-00004.safetensors"));
    Map<?, ?> x = onlyContradiction(c.index);
    assertThat(x.get("member")).isEqualTo(2);
    assertThat(x.get("path")).isEqualTo(c.shards.get(2).toString());
    assertThat(x.get("tensor")).isEqualTo("ghost.weight");
    assertThat(x.get("field")).isEqualTo("weight_map[\"ghost.weight\"]");
  }

  @Test
  void aTensorPresentButUnmappedIsNamed() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 2,
        (s, b) -> { if (s == 2) b.tensor("extra.bias", "F32", 4); }, map -> {});
    Map<?, ?> x = onlyContradiction(c.index);
    assertThat(x.get("member")).isEqualTo(1);
    assertThat(x.get("tensor")).isEqualTo("extra.bias");
    assertThat((String) x.get("field")).matches("tensors\\[\\d+\\]\\.name");
    assertThat((String) x.get("message")).contains("does not map it");
  }

  @Test
  void aTensorMappedToAnotherMemberIsNamedOnce() {
    // Moved in the index only: present in shard 1, mapped to shard 2.
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 2, (s, b) -> {},
        map -> map.put("model.layers.0.mlp.weight", "model-00002-of-00002.safetensors"));
    SetInspection.Failed f = (SetInspection.Failed) rea.inspectSet(c.index, InspectOptions.defaults());
    List<?> list = (List<?>) f.error().diagnostics().get("contradictions");
    assertThat(list).hasSize(2);
    Map<?, ?> present = (Map<?, ?>) list.get(0);
    assertThat(present.get("member")).isEqualTo(0);
    assertThat(present.get("tensor")).isEqualTo("model.layers.0.mlp.weight");
    assertThat((String) present.get("message")).contains("maps it to \"model-00002-of-00002.safetensors\"");
    Map<?, ?> absent = (Map<?, ?>) list.get(1);
    assertThat(absent.get("member")).isEqualTo(1);
    assertThat(absent.get("field")).isEqualTo("weight_map[\"model.layers.0.mlp.weight\"]");
  }

  @Test
  void anIndexMemberThatIsNotSafetensorsIsNamed() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1);
    // The same tensor name, in a GGUF file: only the format contradicts.
    Files.write(c.shards.get(1),
        GgufBuilder.v3().tensor("model.layers.1.mlp.weight", 0, 8, 4).build().bytes());
    Map<?, ?> x = onlyContradiction(c.index);
    assertThat(x.get("member")).isEqualTo(1);
    assertThat(x.get("field")).isEqualTo("artifact.format");
    assertThat(x.containsKey("tensor")).isFalse();
  }

  @Test
  void aNameInTwoSplitMembersIsNamed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "dup", 2, 1, 1, (no, kvs) -> {},
        (no, b) -> { if (no == 2) b.tensor("blk.0.weight", 0, 8, 2); });
    // split.tensors.count stays 2 while the members hold 3: make it agree so only the name speaks.
    List<Path> again = SetFixtures.ggufSplit(dir, "dup", 2, 1, 1,
        (no, kvs) -> kvs.put("split.tensors.count", GgufBuilder.i32(3)),
        (no, b) -> { if (no == 2) b.tensor("blk.0.weight", 0, 8, 2); });
    assertThat(again).isEqualTo(m);
    Map<?, ?> x = onlyContradiction(m.get(0));
    assertThat(x.get("member")).isEqualTo(1);
    assertThat(x.get("tensor")).isEqualTo("blk.0.weight");
    assertThat((String) x.get("message")).contains("also a tensor of member 0");
  }

  @Test
  void aWrongSplitNoIsNamed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "no", 3, 1, 1,
        (no, kvs) -> { if (no == 3) kvs.put("split.no", GgufBuilder.u16(1)); }, (no, b) -> {});
    Map<?, ?> x = onlyContradiction(m.get(0));
    assertThat(x.get("member")).isEqualTo(2);
    assertThat(x.get("field")).isEqualTo("metadata[\"split.no\"]");
    assertThat((String) x.get("message")).contains("split.no is 1");
  }

  @Test
  void aMissingSplitKeyIsNamed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "miss", 2, 1, 1,
        (no, kvs) -> { if (no == 2) kvs.remove("split.count"); }, (no, b) -> {});
    Map<?, ?> x = onlyContradiction(m.get(1));
    assertThat(x.get("member")).isEqualTo(1);
    assertThat(x.get("field")).isEqualTo("metadata[\"split.count\"]");
    assertThat((String) x.get("message")).contains("missing");
  }

  @Test
  void aSplitKeyOfAnotherTypeIsNamed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "typ", 2, 1, 1,
        (no, kvs) -> { if (no == 1) kvs.put("split.no", GgufBuilder.u32(0)); }, (no, b) -> {});
    Map<?, ?> x = onlyContradiction(m.get(0));
    assertThat(x.get("member")).isEqualTo(0);
    assertThat(x.get("field")).isEqualTo("metadata[\"split.no\"].type");
    assertThat((String) x.get("message")).contains("UINT32").contains("UINT16");
  }

  @Test
  void aWrongSplitCountIsNamed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "cnt", 2, 1, 1,
        (no, kvs) -> { if (no == 2) kvs.put("split.count", GgufBuilder.u16(3)); }, (no, b) -> {});
    Map<?, ?> x = onlyContradiction(m.get(0));
    assertThat(x.get("member")).isEqualTo(1);
    assertThat(x.get("field")).isEqualTo("metadata[\"split.count\"]");
  }

  @Test
  void aWrongSplitTensorCountIsNamed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "tc", 2, 1, 1,
        (no, kvs) -> { if (no == 1) kvs.put("split.tensors.count", GgufBuilder.i32(5)); },
        (no, b) -> {});
    Map<?, ?> x = onlyContradiction(m.get(0));
    assertThat(x.get("member")).isEqualTo(0);
    assertThat(x.get("field")).isEqualTo("metadata[\"split.tensors.count\"]");
    assertThat((String) x.get("message")).contains("is 5").contains("hold 2");
  }

  /**
   * A member of another split set among the right ones holds that set's count: it alone is
   * blamed, not the members that agree with each other (a trial saw members 0 and 2 named for a
   * foreign member 1 whose own count happened to equal the tensors held).
   */
  @Test
  void aMemberFromAnotherSetIsTheOneBlamedForItsCount() {
    List<Path> m = SetFixtures.ggufSplit(dir, "mix", 3, 1, 1,
        (no, kvs) -> { if (no == 2) kvs.put("split.tensors.count", GgufBuilder.i32(4)); },
        (no, b) -> { if (no == 2) b.tensor("blk.extra.weight", 0, 8, 2); });
    SetInspection r = rea.inspectSet(m.get(0), InspectOptions.defaults());
    assertThat(r).isInstanceOf(SetInspection.Failed.class);
    ReaException e = ((SetInspection.Failed) r).error();
    assertThat(e.getMessage()).contains("split.tensors.count is 4 where other members declare 3")
        .contains("either this member is from another set or the others' count is wrong");
    assertThat(e.path()).isEqualTo(m.get(1).toString());

    // Most members wrong (9, 9, and 3 where 3 tensors are held): the odd one is still named
    // first, and the message says its count is the one the tensors bear out.
    List<Path> most = SetFixtures.ggufSplit(dir, "most", 3, 1, 1,
        (no, kvs) -> kvs.put("split.tensors.count", GgufBuilder.i32(no == 3 ? 3 : 9)),
        (no, b) -> {});
    ReaException w = ((SetInspection.Failed) rea.inspectSet(most.get(0), InspectOptions.defaults()))
        .error();
    assertThat(w.getMessage()).contains("split.tensors.count is 3 where other members declare 9")
        .contains("hold 3 tensors), which this count matches: either");
  }

  @Test
  void aMemberOfAnotherVersionIsNamed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "ver", 2, 1, 1, (no, kvs) -> {},
        (no, b) -> { if (no == 2) b.version(2); });
    Map<?, ?> x = onlyContradiction(m.get(0));
    assertThat(x.get("member")).isEqualTo(1);
    assertThat(x.get("field")).isEqualTo("format_facts.version");
  }

  @Test
  void aMemberOfAnotherByteOrderIsNamed() {
    List<Path> m = SetFixtures.ggufSplit(dir, "be", 2, 1, 1, (no, kvs) -> {},
        (no, b) -> { if (no == 2) b.bigEndian(); });
    Map<?, ?> x = onlyContradiction(m.get(0));
    assertThat(x.get("member")).isEqualTo(1);
    assertThat(x.get("field")).isEqualTo("format_facts.byte_order");
  }

  @Test
  void aSplitMemberThatIsNotGgufIsNamed() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "fmt", 2, 1, 1);
    Files.write(m.get(1), dev.rea.core.internal.format.safetensors.SafetensorsBuilder
        .file("{\"t\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4));
    Map<?, ?> x = onlyContradiction(m.get(0));
    assertThat(x.get("member")).isEqualTo(1);
    assertThat(x.get("field")).isEqualTo("artifact.format");
  }

  // ---------------------------------------------------------------- warnings

  @Test
  void aTotalSizeThatDiffersIsAWarning() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 2);
    Files.writeString(c.index, SetFixtures.indexJson(c.totalBytes + 8, c.weightMap));
    SetInspection.Complete r = complete(c.index);
    assertThat(r.set().warnings()).extracting(Warning::code)
        .containsExactly("index_total_size_mismatch");
    assertThat(r.set().warnings().get(0).message())
        .contains(Long.toString(c.totalBytes + 8)).contains(Long.toString(c.totalBytes));
  }

  @Test
  void metadataInALaterMemberIsAWarning() {
    List<Path> m = SetFixtures.ggufSplit(dir, "meta", 3, 1, 1,
        (no, kvs) -> { if (no == 3) kvs.put("general.name", GgufBuilder.str("late")); },
        (no, b) -> {});
    SetInspection.Complete r = complete(m.get(0));
    assertThat(r.set().warnings()).extracting(Warning::code)
        .containsExactly("split_metadata_outside_first");
    assertThat(r.set().warnings().get(0).message()).contains("members 2 (\"general.name\")");
  }

  @Test
  void upToThirtyTwoContradictionsAreListedAndAllCounted() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1, (s, b) -> {}, map -> {
      for (int i = 0; i < 40; i++) {
        map.put("ghost." + i, "model-00001-of-00002.safetensors");
      }
    });
    SetInspection.Failed f = (SetInspection.Failed) rea.inspectSet(c.index, InspectOptions.defaults());
    assertThat((List<?>) f.error().diagnostics().get("contradictions")).hasSize(32);
    assertThat(f.error().diagnostics().get("contradiction_count")).isEqualTo(40);
    assertThat(f.partial().members()).hasSize(2);

    // A check's verdict names every listed contradiction, and counts the rest.
    dev.rea.core.Verdict v =
        Rea.verdict(c.index.toString(), f, new dev.rea.core.CheckPolicy(null, java.util.Set.of(), false));
    assertThat(v.reasons()).hasSize(1);
    String message = v.reasons().get(0).message();
    assertThat(message).startsWith(f.error().getMessage() + "; the others: ").endsWith("; and 8 more");
    for (Object item : (List<?>) f.error().diagnostics().get("contradictions")) {
      assertThat(message).contains(", " + ((java.util.Map<?, ?>) item).get("field") + ": ");
    }
  }

  @Test
  void aSetWithOneContradictionKeepsItsMessageAsTheVerdict() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1, (s, b) -> {}, map -> {
      map.put("ghost", "model-00001-of-00002.safetensors");
    });
    SetInspection.Failed f = (SetInspection.Failed) rea.inspectSet(c.index, InspectOptions.defaults());
    dev.rea.core.Verdict v =
        Rea.verdict(c.index.toString(), f, new dev.rea.core.CheckPolicy(null, java.util.Set.of(), false));
    assertThat(v.reasons().get(0).message()).isEqualTo(f.error().getMessage());
  }

  @Test
  void membersKeepTheirOwnRecords() {
    List<Path> m = SetFixtures.ggufSplit(dir, "own", 2, 1, 1);
    SetInspection.Complete r = complete(m.get(0));
    EvidenceRecord first = r.members().get(0);
    assertThat(first.artifact().path()).isEqualTo(m.get(0).toString());
    assertThat(first.metadata()).extracting(row -> row.key()).contains("split.no", "general.name");
  }

  /**
   * The names a split set's members declare are kept to find one in two members: past the bound
   * the set is refused at the member that passes it, before its names are kept.
   */
  @Test
  void aSplitSetDeclaringMoreTensorsThanTheBoundIsRefused() throws ReaException {
    SetChecks checks =
        new SetChecks(SetKind.GGUF_SPLIT, null, 2, () -> {
          throw new AssertionError("a split set has no index");
        }, 5);
    checks.member(0, "a-00001-of-00002.gguf", dev.rea.core.testing.TestRecords.manyTensors(3));
    EvidenceRecord second = dev.rea.core.testing.TestRecords.manyTensors(3);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> checks.member(1, "a-00002-of-00002.gguf", second))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
          assertThat(e.field()).isEqualTo("tensors");
          assertThat(e.diagnostics()).containsEntry("limit", "set_tensor_names")
              .containsEntry("limit_names", 5).containsEntry("member", 1);
        });
    assertThat(SetChecks.MAX_SET_TENSOR_NAMES).isGreaterThan(91_991);
  }
}
