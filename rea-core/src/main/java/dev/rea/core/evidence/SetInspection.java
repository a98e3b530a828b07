package dev.rea.core.evidence;

import dev.rea.core.error.ReaException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of inspecting a model set (CONTRACT section 9): the complete set record with every
 * member's record, or a failure with the partial set record of the members finished before it.
 * A value, not an exception, so that a caller cannot drop the partial Evidence by catching.
 */
public sealed interface SetInspection permits SetInspection.Complete, SetInspection.Failed {

  /**
   * @return the complete result
   * @throws ReaException the failure, when the inspection failed
   */
  Complete orThrow() throws ReaException;

  /** @return the failure, or empty */
  Optional<ReaException> failure();

  /**
   * Takes each member's complete record as soon as it is inspected and checked, in member order,
   * instead of the result keeping them all: memory then stays that of one member (CONTRACT
   * section 9). A set inspected with a sink returns empty member lists.
   */
  @FunctionalInterface
  interface MemberSink {
    /**
     * @param index the member's position (0-based)
     * @param record its complete record, with its {@code evidence_id}
     * @throws ReaException to stop the set (the failure is the set's)
     */
    void accept(int index, EvidenceRecord record) throws ReaException;
  }

  /**
   * A complete set.
   *
   * @param set the set record, with its {@code evidence_id} (unsigned)
   * @param members each member's complete record, in member order (the set record's {@code
   *     members[i].evidence_id} is {@code members.get(i).evidenceId()}); empty when a {@link
   *     MemberSink} took them
   * @param checksPassed the cross-checks that ran and passed, in words (for readable reports)
   */
  record Complete(ModelSetRecord set, List<EvidenceRecord> members, List<String> checksPassed)
      implements SetInspection {
    public Complete {
      Objects.requireNonNull(set, "set");
      members = List.copyOf(members);
      checksPassed = List.copyOf(checksPassed);
    }

    @Override
    public Complete orThrow() {
      return this;
    }

    @Override
    public Optional<ReaException> failure() {
      return Optional.empty();
    }
  }

  /**
   * A failure (CONTRACT section 6): a member missing or failing (the error names its path), a
   * contradiction between members ({@code set_rejected}), a cancel, or a path that names no set.
   *
   * @param error the typed failure
   * @param partial the set record of the members finished so far ({@code status: "partial"}), or
   *     null when the failure came before any member was finished
   * @param members the complete records of those members, in member order (empty with a
   *     {@link MemberSink})
   */
  record Failed(ReaException error, @Nullable ModelSetRecord partial, List<EvidenceRecord> members)
      implements SetInspection {
    public Failed {
      Objects.requireNonNull(error, "error");
      members = List.copyOf(members);
    }

    @Override
    public Complete orThrow() throws ReaException {
      throw error;
    }

    @Override
    public Optional<ReaException> failure() {
      return Optional.of(error);
    }
  }
}
