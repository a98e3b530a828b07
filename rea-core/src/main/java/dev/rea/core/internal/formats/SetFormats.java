package dev.rea.core.internal.formats;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.internal.set.GgufSplitName;
import dev.rea.core.internal.set.SetRecordJson;
import java.util.List;

/**
 * A model set's Evidence (CONTRACT section 9) in the standard formats of CONTRACT section 13:
 * the in-toto attestation whose subjects are the members and whose predicate is the set's
 * bundle ({@link InTotoAttestation#ofFiles}), and the CycloneDX BOM with one parent component
 * for the set ({@link CycloneDxBom#ofSet}). Stateless.
 */
public final class SetFormats {
  private SetFormats() {}

  /**
   * The signed envelope of a set: one subject per member (base name, full SHA-256), in member
   * order; the predicate is the bundle {@code {"schema": "rea.bundle.v1", "records": [set,
   * member...]}} exactly as {@code inspect-model-set --json} prints it.
   *
   * @param set the signed set record
   * @param members its signed member records, in member order
   * @param signer the REA key
   * @return the envelope's UTF-8 JSON
   * @throws ReaException {@code conflicting_choices} when a member has no full SHA-256 (the set
   *     was inspected with {@code --hash header})
   * @throws IllegalArgumentException when a record is unsigned or the members are not the set's
   */
  public static byte[] inToto(ModelSetRecord set, List<EvidenceRecord> members, DsseSigner signer)
      throws ReaException {
    checkMembers(set, members);
    if (set.evidenceId() == null || set.authentication() == null) {
      throw new IllegalArgumentException("the predicate must be signed Evidence: the set record is not");
    }
    return InTotoAttestation.ofFiles(
        members, g -> SetRecordJson.writeBundle(g, set, members), signer);
  }

  /**
   * The BOM of a set: a parent component named {@link #name} with the members' components.
   *
   * @param set the set record
   * @param members its member records, in member order
   * @param toolVersion REA's version
   * @return the BOM's UTF-8 JSON
   * @throws IllegalArgumentException when the members are not the set's
   */
  public static byte[] cycloneDx(ModelSetRecord set, List<EvidenceRecord> members, String toolVersion) {
    checkMembers(set, members);
    ModelSetRecord.IndexInfo index = set.set().index();
    return CycloneDxBom.ofSet(
        new CycloneDxBom.ModelSet(
            name(set), set.set().kind(), set.evidenceId(), set.observedAt(),
            index == null ? null : index.sha256(), members),
        toolVersion);
  }

  /**
   * @return the set's name: the index file's base name ({@code model.safetensors.index.json}),
   *     a split set's common prefix ({@code Qwen3-8B-Q8_0} of {@code
   *     Qwen3-8B-Q8_0-00001-of-00002.gguf}), or a single file's base name
   */
  public static String name(ModelSetRecord set) {
    String base = InTotoAttestation.baseName(set.set().path());
    if (set.set().kind().equals("gguf_split")) {
      GgufSplitName split = GgufSplitName.parse(base);
      if (split != null) {
        return split.prefix();
      }
    }
    return base;
  }

  private static void checkMembers(ModelSetRecord set, List<EvidenceRecord> members) {
    if (members.size() != set.members().size()) {
      throw new IllegalArgumentException(
          "the set lists " + set.members().size() + " members, " + members.size() + " given");
    }
    for (int i = 0; i < members.size(); i++) {
      if (!set.members().get(i).evidenceId().equals(members.get(i).evidenceId())) {
        throw new IllegalArgumentException("member " + i + " is not the set's");
      }
    }
  }
}
