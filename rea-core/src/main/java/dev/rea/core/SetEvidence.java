package dev.rea.core;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A model set's Evidence that this process produced or authenticated (CONTRACT section 9): the set
 * record and each member's record, indexed once so that the set summary and views over members
 * and over all tensors are answered without scanning. Obtain it from {@link
 * Rea#setEvidence(ModelSetRecord, List)} or {@link Rea#readSetEvidence}.
 *
 * <p>Immutable; thread-safe.
 */
public final class SetEvidence {
  private final ModelSetRecord set;
  private final List<Evidence> members;

  SetEvidence(ModelSetRecord set, List<Evidence> members) {
    this.set = Objects.requireNonNull(set, "set");
    this.members = List.copyOf(members);
    if (set.members().size() != members.size()) {
      throw new IllegalArgumentException(
          "the set lists " + set.members().size() + " members, " + members.size() + " given");
    }
  }

  /**
   * A set from Evidence already indexed (retained by a session, say).
   *
   * @param set the set record
   * @param members its members' Evidence, in member order: each one's {@code evidence_id} must be
   *     the set record's {@code members[i].evidence_id}
   * @return the set
   * @throws IllegalArgumentException when the members are not the set's
   */
  public static SetEvidence of(ModelSetRecord set, List<Evidence> members) {
    SetEvidence s = new SetEvidence(set, members);
    for (int i = 0; i < members.size(); i++) {
      if (!set.members().get(i).evidenceId().equals(members.get(i).evidenceId())) {
        throw new IllegalArgumentException("member " + i + " is not the set's");
      }
    }
    return s;
  }

  /** @return the set record */
  public ModelSetRecord set() {
    return set;
  }

  /** @return its {@code evidence_id} */
  public String evidenceId() {
    return Objects.requireNonNull(set.evidenceId(), "evidence_id");
  }

  /** @return the members' indexed Evidence, in member order */
  public List<Evidence> members() {
    return members;
  }

  /** @return the members' records, in member order */
  public List<EvidenceRecord> memberRecords() {
    List<EvidenceRecord> out = new ArrayList<>(members.size());
    for (Evidence e : members) {
      out.add(e.record());
    }
    return out;
  }

  /** @return the memory the members' indexes hold (bytes) */
  public long retainedBytes() {
    long n = 0;
    for (Evidence e : members) {
      n += e.retainedBytes();
    }
    return n;
  }

  @Override
  public String toString() {
    return "SetEvidence{" + evidenceId() + ", " + members.size() + " members}";
  }
}
