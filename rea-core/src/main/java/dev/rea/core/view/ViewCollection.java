package dev.rea.core.view;

import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The collections a view can page (CONTRACT section 4), with the filters and fields each
 * accepts. {@code indices} fits every collection (every row has a positional index); {@code
 * names}, {@code name_glob} and {@code storage_validation} fit tensors only; {@code keys} and
 * {@code key_glob} fit metadata only;
 * {@code types} fits tensors (the reported type label) and types.
 */
public enum ViewCollection {
  /** Tensor rows, in the record's order. */
  TENSORS(
      "tensors",
      Set.of("names", "name_glob", "types", "indices", "storage_validation"),
      List.of(
          "index",
          "name",
          "type",
          "type_id",
          "shape",
          "parameter_count",
          "offset",
          "file_offset",
          "byte_length",
          "storage_validation")),
  /** Metadata rows, in the record's order. */
  METADATA(
      "metadata",
      Set.of("keys", "key_glob", "indices"),
      List.of(
          "index",
          "key",
          "type",
          "value",
          "element_type",
          "count",
          "preview",
          "preview_complete",
          "value_sha256")),
  /** Type rows (one per type label); a row's index is its position in the record's types. */
  TYPES(
      "types",
      Set.of("types", "indices"),
      List.of("index", "type", "type_id", "tensor_count", "parameter_count", "byte_length")),
  /**
   * The members of a model set (CONTRACT section 9), in member order; only over a set's
   * Evidence.
   */
  MEMBERS(
      "members",
      Set.of("indices"),
      List.of(
          "index",
          "path",
          "evidence_id",
          "format",
          "file_size",
          "header_sha256",
          "sha256",
          "tensor_count",
          "parameter_count",
          "byte_length"));

  private final String wire;
  private final Set<String> filters;
  private final List<String> fields;

  ViewCollection(String wire, Set<String> filters, List<String> fields) {
    this.wire = wire;
    this.filters = filters;
    this.fields = fields;
  }

  /** @return the JSON spelling */
  public String wire() {
    return wire;
  }

  /** @return the filter names this collection accepts */
  public Set<String> filters() {
    return filters;
  }

  /** @return every column in output order ({@code index} first) */
  public List<String> fields() {
    return fields;
  }

  /** @return the collection for a JSON spelling, or null */
  public static @Nullable ViewCollection fromWire(String text) {
    for (ViewCollection c : values()) {
      if (c.wire.equals(text)) {
        return c;
      }
    }
    return null;
  }
}
