package dev.rea.core.internal.format.safetensors;

import dev.rea.core.evidence.Limitation;
import dev.rea.core.internal.evidence.TensorType;
import dev.rea.core.internal.io.FieldPath;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A dtype label that is not a dtype of the safetensors crate ({@link SafetensorsDtype}): its
 * tensors keep their declared range as {@code byte_length} with {@code storage_validation:
 * "unknown"}, and the label carries one {@code unknown_dtype} limitation listing them ({@code
 * shared/notes/safetensors-readers.md}). Two instances with the same label are the same type.
 */
final class UnknownDtype implements TensorType {
  private final String label;

  /** @param label the dtype as declared */
  UnknownDtype(String label) {
    this.label = Objects.requireNonNull(label, "label");
  }

  @Override
  public String label() {
    return label;
  }

  /** @return -1: safetensors rows have no type ID */
  @Override
  public long typeId() {
    return -1;
  }

  /** @return {@link Note#LIMITATION}, whatever the element count */
  @Override
  public Note note(long elements) {
    return Note.LIMITATION;
  }

  /** @return the {@code unknown_dtype} limitation of the label, carried by {@code count} tensors */
  @Override
  public Limitation limitation(int count, List<Integer> indices) {
    return new Limitation(
        "unknown_dtype",
        "dtype "
            + FieldPath.quote(label)
            + " is not a dtype of the safetensors crate (0.8.0-dev, 24b0b285); "
            + (count == 1
                ? "1 tensor keeps its declared data_offsets range (checked for order, overlap and"
                    + " coverage) as byte_length, but its shape cannot be checked against its"
                    + " storage"
                : count
                    + " tensors keep their declared data_offsets range (checked for order,"
                    + " overlap and coverage) as byte_length, but their shapes cannot be checked"
                    + " against their storage"),
        indices,
        null,
        null);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof UnknownDtype u && u.label.equals(label);
  }

  @Override
  public int hashCode() {
    return label.hashCode();
  }

  @Override
  public String toString() {
    return label;
  }
}
