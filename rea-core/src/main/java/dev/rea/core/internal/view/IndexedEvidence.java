package dev.rea.core.internal.view;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.io.RetainedBudget;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One authenticated Evidence record, indexed once so that any view page is answered without
 * scanning the record (specification, "Index a record once"): metadata key, tensor name and
 * type label to row index; for each type label and storage state the sorted tensor indices;
 * limitation codes per tensor index and per type ID; and the metadata rows whose array preview is
 * incomplete. Building the index is linear in the rows; a page then costs time proportional to
 * the request's explicit lists, the page size and a logarithm of the row count.
 *
 * <p>The record must already be authenticated ({@code dev.rea.core.internal.auth.EvidenceVerifier}) or
 * be a record this process produced; indexing assumes unique names, keys and labels and
 * positional indices (it refuses duplicates with {@link IllegalArgumentException}, which a
 * verified record never has).
 *
 * <p>Immutable; thread-safe.
 */
public final class IndexedEvidence {
  private final EvidenceRecord record;
  private final Map<String, Integer> metadataByKey;
  private final Map<String, Integer> tensorByName;
  private final Map<String, Integer> typeByLabel;
  /** label -> [consistent indices, unknown indices], each sorted ascending. */
  private final Map<String, int[][]> tensorsByLabelAndState;
  private final Map<Integer, List<String>> limitationsByTensor;
  private final Map<Long, List<String>> limitationsByTypeId;
  private final boolean[] metadataPreviewIncomplete;
  private final long retainedBytes;

  private IndexedEvidence(EvidenceRecord record) {
    this.record = record;
    List<MetadataRow> md = record.metadata();
    List<TensorRow> ts = record.tensors();
    List<TypeRow> ty = record.types();
    long bytes = RetainedBudget.VALUE_OVERHEAD;

    Map<String, Integer> keys = new HashMap<>(md.size() * 2);
    metadataPreviewIncomplete = new boolean[md.size()];
    for (int i = 0; i < md.size(); i++) {
      MetadataRow row = md.get(i);
      if (row.index() != i || keys.put(row.key(), i) != null) {
        throw new IllegalArgumentException("metadata row " + i + " is not positional or unique");
      }
      metadataPreviewIncomplete[i] = !complete(row.value());
      bytes += RetainedBudget.VALUE_OVERHEAD * 2 + utf8(row.key()) + valueBytes(row.value());
    }

    Map<String, Integer> names = new HashMap<>(ts.size() * 2);
    Map<String, int[]> counts = new LinkedHashMap<>();
    for (int i = 0; i < ts.size(); i++) {
      TensorRow t = ts.get(i);
      if (t.index() != i || names.put(t.name(), i) != null) {
        throw new IllegalArgumentException("tensor row " + i + " is not positional or unique");
      }
      counts.computeIfAbsent(t.type(), k -> new int[2])[state(t.storageValidation())]++;
      bytes +=
          RetainedBudget.VALUE_OVERHEAD * 2
              + utf8(t.name())
              + utf8(t.type())
              + 8L * t.shape().size()
              + 2 * Integer.BYTES;
    }
    Map<String, int[][]> byLabel = new HashMap<>(counts.size() * 2);
    for (Map.Entry<String, int[]> e : counts.entrySet()) {
      byLabel.put(e.getKey(), new int[][] {new int[e.getValue()[0]], new int[e.getValue()[1]]});
    }
    Map<String, int[]> fill = new HashMap<>();
    for (int i = 0; i < ts.size(); i++) {
      TensorRow t = ts.get(i);
      int s = state(t.storageValidation());
      int[] pos = fill.computeIfAbsent(t.type(), k -> new int[2]);
      // byLabel has every type label: it was built from the same rows.
      Objects.requireNonNull(byLabel.get(t.type()), "label")[s][pos[s]++] = i;
    }

    Map<String, Integer> labels = new HashMap<>(ty.size() * 2);
    for (int i = 0; i < ty.size(); i++) {
      if (labels.put(ty.get(i).type(), i) != null) {
        throw new IllegalArgumentException("type label of row " + i + " is not unique");
      }
      bytes += RetainedBudget.VALUE_OVERHEAD * 2 + utf8(ty.get(i).type());
    }

    Map<Integer, List<String>> byTensor = new HashMap<>();
    Map<Long, List<String>> byTypeId = new HashMap<>();
    for (Limitation l : record.limitations()) {
      if (l.tensorIndices() != null) {
        for (Integer i : l.tensorIndices()) {
          addCode(byTensor, i, l.code());
        }
      } else if (l.typeId() != null) {
        addCode(byTypeId, l.typeId(), l.code());
      }
      bytes += RetainedBudget.VALUE_OVERHEAD + utf8(l.code()) + utf8(l.message());
      if (l.tensorIndices() != null) {
        bytes += (long) Integer.BYTES * 2 * l.tensorIndices().size();
      }
    }
    for (Warning w : record.warnings()) {
      bytes += RetainedBudget.VALUE_OVERHEAD + utf8(w.code()) + utf8(w.message());
    }
    this.metadataByKey = keys;
    this.tensorByName = names;
    this.typeByLabel = labels;
    this.tensorsByLabelAndState = byLabel;
    this.limitationsByTensor = byTensor;
    this.limitationsByTypeId = byTypeId;
    this.retainedBytes = bytes;
  }

  /**
   * Indexes a record.
   *
   * @param record an authenticated (or self-produced) record with an evidence ID
   * @throws IllegalArgumentException when the record has no evidence ID or is not positional and
   *     unique (never for a verified record)
   */
  public static IndexedEvidence of(EvidenceRecord record) {
    Objects.requireNonNull(record, "record");
    if (record.evidenceId() == null) {
      throw new IllegalArgumentException("the record has no evidence_id");
    }
    return new IndexedEvidence(record);
  }

  private static <K> void addCode(Map<K, List<String>> map, K key, String code) {
    List<String> codes = map.computeIfAbsent(key, k -> new ArrayList<>(1));
    if (!codes.contains(code)) {
      codes.add(code);
    }
  }

  private static int state(StorageValidation sv) {
    return sv == StorageValidation.CONSISTENT ? 0 : 1;
  }

  /** @return whether every array preview in the value, at any depth, holds all its elements */
  private static boolean complete(MetadataValue v) {
    return !v.anyNested(x -> x instanceof MetadataValue.ArrayValue a && !a.previewComplete());
  }

  private static long valueBytes(MetadataValue v) {
    if (v instanceof MetadataValue.StringValue s) {
      return utf8(s.value());
    }
    if (v instanceof MetadataValue.ArrayValue a) {
      long b = RetainedBudget.VALUE_OVERHEAD;
      for (MetadataValue e : a.preview()) {
        b += RetainedBudget.VALUE_OVERHEAD + valueBytes(e);
      }
      return b;
    }
    return 8;
  }

  /** @return the UTF-8 length of a string, in bytes, without encoding it */
  static long utf8(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /** @return the record */
  public EvidenceRecord record() {
    return record;
  }

  /** @return the record's evidence ID */
  public String evidenceId() {
    return Objects.requireNonNull(record.evidenceId());
  }

  /**
   * @return the estimated retained size in bytes under the charging rule of {@link
   *     RetainedBudget} (strings at their UTF-8 length, {@value RetainedBudget#VALUE_OVERHEAD}
   *     bytes per row, value and preview element, doubled for rows to cover their index entries)
   */
  public long retainedBytes() {
    return retainedBytes;
  }

  /** @return the metadata row index for a key, or null */
  public @Nullable Integer metadataIndex(String key) {
    return metadataByKey.get(key);
  }

  /** @return the metadata row for a key, or null */
  public @Nullable MetadataRow metadata(String key) {
    Integer i = metadataByKey.get(key);
    return i == null ? null : record.metadata().get(i);
  }

  /** @return the tensor row index for a name, or null */
  public @Nullable Integer tensorIndex(String name) {
    return tensorByName.get(name);
  }

  /** @return the type row index for a label, or null */
  public @Nullable Integer typeIndex(String label) {
    return typeByLabel.get(label);
  }

  /**
   * @return the sorted tensor indices with this label and storage state (an empty array when
   *     none); the array must not be modified
   */
  int[] tensorsWith(String label, StorageValidation state) {
    int[][] arrays = tensorsByLabelAndState.get(label);
    return arrays == null ? new int[0] : arrays[state(state)];
  }

  /** @return the limitation codes that name this tensor row (by index or by its type ID) */
  public List<String> limitationCodesForTensor(int index) {
    List<String> direct = limitationsByTensor.get(index);
    Long typeId = record.tensors().get(index).typeId();
    List<String> byType = typeId == null ? null : limitationsByTypeId.get(typeId);
    if (byType == null) {
      return direct == null ? List.of() : Collections.unmodifiableList(direct);
    }
    List<String> all = new ArrayList<>(direct == null ? List.of() : direct);
    for (String c : byType) {
      if (!all.contains(c)) {
        all.add(c);
      }
    }
    return all;
  }

  /** @return the limitation codes that concern a type row (via its type ID or its tensors) */
  public List<String> limitationCodesForType(int typeRow) {
    TypeRow t = record.types().get(typeRow);
    List<String> out = new ArrayList<>();
    if (t.typeId() != null && limitationsByTypeId.containsKey(t.typeId())) {
      out.addAll(limitationsByTypeId.get(t.typeId()));
    }
    for (StorageValidation s : StorageValidation.values()) {
      int[] rows = tensorsWith(t.type(), s);
      if (rows.length > 0) {
        List<String> direct = limitationsByTensor.get(rows[0]);
        if (direct != null) {
          for (String c : direct) {
            if (!out.contains(c)) {
              out.add(c);
            }
          }
        }
      }
    }
    return out;
  }

  /** @return true when the metadata row's array preview (or a nested one) is incomplete */
  public boolean metadataPreviewIncomplete(int index) {
    return metadataPreviewIncomplete[index];
  }

  /** @return the raw bytes of a string in UTF-8 (helper for page budgeting) */
  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
