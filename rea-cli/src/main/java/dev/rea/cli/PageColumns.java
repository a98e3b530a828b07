package dev.rea.cli;

import java.util.Locale;
import java.util.Map;

/**
 * How each field of a page's rows (CONTRACT section 4; {@code ViewCollection#fields()}) fits a
 * terminal ({@link FittedTable}). On an unlimited screen a column is titled with its field name
 * in capitals, as always. On a limited one: names, keys, values and previews may be cut; numbers,
 * shapes, type labels and states never are; {@code index}, {@code name}, {@code key} and {@code
 * type} are never dropped; the other columns are dropped when they do not fit, digests, positions
 * and IDs first ({@code value_sha256}, {@code offset}, {@code type_id}, {@code file_offset}, {@code
 * parameter_count}, {@code preview_complete}, {@code element_type}, {@code
 * storage_validation}, {@code count}, {@code shape}, {@code tensor_count}, {@code preview}, {@code byte_length}, {@code value}); long field
 * names get shorter headings ({@code STORAGE}, {@code PARAMETERS}, {@code BYTES}, ...).
 */
final class PageColumns {
  private PageColumns() {}

  /** Drop order of droppable fields: higher is dropped first. */
  private static final Map<String, Integer> DROP =
      Map.ofEntries(
          Map.entry("value_sha256", 14),
          Map.entry("offset", 13),
          Map.entry("type_id", 12),
          Map.entry("file_offset", 11),
          Map.entry("parameter_count", 10),
          Map.entry("preview_complete", 9),
          Map.entry("element_type", 8),
          Map.entry("storage_validation", 7),
          Map.entry("count", 6),
          Map.entry("shape", 5),
          Map.entry("tensor_count", 4),
          Map.entry("preview", 3),
          Map.entry("byte_length", 2),
          Map.entry("value", 1),
          Map.entry("omitted_fields", 1));

  /** Headings on a limited screen, where shorter than the field name. */
  private static final Map<String, String> FITTED =
      Map.of(
          "type_id", "ID",
          "parameter_count", "PARAMETERS",
          "file_offset", "FILE OFFSET",
          "byte_length", "BYTES",
          "storage_validation", "STORAGE",
          "preview_complete", "COMPLETE",
          "element_type", "ELEMENTS",
          "tensor_count", "TENSORS",
          "omitted_fields", "OMITTED");

  /** Least widths of the fields whose cells may be cut (they prefer twice as much). */
  private static final Map<String, Integer> SHORTENABLE =
      Map.of("name", 16, "key", 16, "value", 12, "preview", 12, "omitted_fields", 12);

  /** @return the column for a row field */
  static FittedTable.Column of(String field) {
    String title = field.toUpperCase(Locale.ROOT);
    Integer least = SHORTENABLE.get(field);
    int drop = DROP.getOrDefault(field, 0);
    int atLeast = least == null ? 0 : least;
    if (field.equals("name")) {
      return FittedTable.Column.name(title, atLeast);
    }
    return new FittedTable.Column(title, FITTED.get(field), least != null, atLeast, 2 * atLeast,
        drop, false);
  }
}
