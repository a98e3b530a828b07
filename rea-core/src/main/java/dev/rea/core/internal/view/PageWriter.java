package dev.rea.core.internal.view;

import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * One view page being filled, for a single record ({@link ViewPages}) or a model set ({@link
 * SetViewPages}): holds the page's warnings, rows, omission keys and unknowns entries, keeps
 * the bytes still free within {@link ViewPages#PAGE_BUDGET_BYTES} and writes the page object of
 * CONTRACT section 4. The caller chooses the rows and what to do with one that does not fit.
 * Not thread-safe (one page, one caller).
 */
final class PageWriter {
  /** Room kept for the digits of {@code next_offset} and {@code warnings_omitted}. */
  private static final int SLACK = 32;

  /**
   * What the page says about its parent Evidence: {@code parent_evidence_id}, the {@code source}
   * fields other than {@code kind}, and {@code header_coverage}.
   *
   * @param evidenceId the parent's Evidence ID (null only for a record never identified)
   * @param path {@code source.path}
   * @param format {@code source.format}
   * @param headerSha256 {@code source.header_sha256}, or null
   * @param sha256 {@code source.sha256}, or null
   * @param fileSize {@code source.file_size}, a decimal string of bytes
   * @param headerCoverage the parent's {@code coverage.header}
   */
  record Parent(
      @Nullable String evidenceId,
      String path,
      String format,
      @Nullable String headerSha256,
      @Nullable String sha256,
      String fileSize,
      String headerCoverage) {}

  private final Parent parent;
  private final ViewRequest view;
  private final SourceKind source;
  private final int total;
  private final List<byte[]> warnings = new ArrayList<>();
  private final int omitted;
  private final List<byte[]> rows = new ArrayList<>();
  private final List<String> omissions = new ArrayList<>();
  private final List<byte[]> unknowns = new ArrayList<>();
  private final List<Integer> indices = new ArrayList<>();
  private int remaining;

  /**
   * Starts an empty page: the page note first (if any), then the parent's warnings in order while
   * they fit in {@link ViewPages#WARNINGS_BUDGET_BYTES}; the rest are counted as omitted.
   *
   * @param parent the parent Evidence's identity
   * @param view the view
   * @param source how the Evidence was supplied, for {@code source.kind}
   * @param total {@code total_matches}
   * @param note the page's {@code unmatched_selection} note, or null
   * @param parentWarnings the parent record's warnings
   */
  PageWriter(Parent parent, ViewRequest view, SourceKind source, int total,
      @Nullable Warning note, List<Warning> parentWarnings) {
    this.parent = parent;
    this.view = view;
    this.source = source;
    this.total = total;
    int used = 0;
    if (note != null) {
      byte[] b = ViewPages.warning(note);
      warnings.add(b);
      used += b.length + 1;
    }
    int left = 0;
    for (Warning w : parentWarnings) {
      byte[] b = ViewPages.warning(w);
      if (left == 0 && used + b.length + 1 <= ViewPages.WARNINGS_BUDGET_BYTES) {
        warnings.add(b);
        used += b.length + 1;
      } else {
        left++;
      }
    }
    this.omitted = left;
    this.remaining = ViewPages.PAGE_BUDGET_BYTES - render(null).length - SLACK;
  }

  /** @return bytes still free on the page; negative once an oversized first row was added */
  int remaining() {
    return remaining;
  }

  /** @return true when the page holds {@code limit} rows */
  boolean full() {
    return rows.size() >= view.limit();
  }

  /** @return true while no row was added */
  boolean isEmpty() {
    return rows.isEmpty();
  }

  /**
   * @return whether a row with its unknowns entry and omission key fits in what is left
   */
  boolean fits(byte[] row, byte @Nullable [] unknown, @Nullable String omission) {
    return cost(row, unknown, omission) <= remaining;
  }

  /**
   * Puts a page note before all other warnings, taking its bytes from the room left.
   *
   * @param note one warning object as compact JSON
   */
  void noteFirst(byte[] note) {
    warnings.add(0, note);
    remaining -= note.length + 1;
  }

  /**
   * Adds a row, whether or not it fits (the caller decides).
   *
   * @param index the row's index, reported in {@link ViewPage#rowIndices()}
   * @param row the row object as compact JSON
   * @param unknown the row's entry for the page's unknowns list, or null
   * @param omission the row's key for the page's array_omissions list, or null
   */
  void add(int index, byte[] row, byte @Nullable [] unknown, @Nullable String omission) {
    rows.add(row);
    indices.add(index);
    if (unknown != null) {
      unknowns.add(unknown);
    }
    if (omission != null) {
      omissions.add(omission);
    }
    remaining -= cost(row, unknown, omission);
  }

  /**
   * Writes the page; {@code next_offset} follows the last row unless it reached the last match.
   *
   * @return the page
   * @throws IllegalStateException if the page exceeds the budget (a bug in the caller's sizing)
   */
  ViewPage finish() {
    int end = view.offset() + rows.size();
    Integer next = end < total && !rows.isEmpty() ? end : null;
    byte[] json = render(next);
    if (json.length > ViewPages.PAGE_BUDGET_BYTES) {
      throw new IllegalStateException(
          "page of " + json.length + " bytes exceeds the budget of " + ViewPages.PAGE_BUDGET_BYTES);
    }
    int[] rowIndices = indices.stream().mapToInt(Integer::intValue).toArray();
    return new ViewPage(json, total, view.offset(), view.limit(), next, rowIndices, omitted);
  }

  private static int cost(byte[] row, byte @Nullable [] unknown, @Nullable String omission) {
    return row.length + 1 + (unknown == null ? 0 : unknown.length + 1)
        + (omission == null ? 0 : ViewPages.quoted(omission) + 1);
  }

  private byte[] render(@Nullable Integer next) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeStringProperty("kind", ViewPages.KIND);
      g.writeStringProperty("parent_evidence_id", parent.evidenceId());
      g.writeName("source");
      g.writeStartObject();
      g.writeStringProperty("kind", source.wire());
      g.writeStringProperty("evidence_id", parent.evidenceId());
      g.writeStringProperty("path", parent.path());
      g.writeStringProperty("format", parent.format());
      ViewPages.nullable(g, "header_sha256", parent.headerSha256());
      ViewPages.nullable(g, "sha256", parent.sha256());
      g.writeStringProperty("file_size", parent.fileSize());
      g.writeEndObject();
      g.writeStringProperty("header_coverage", parent.headerCoverage());
      g.writeStringProperty("collection", view.collection().wire());
      g.writeNumberProperty("total_matches", total);
      g.writeNumberProperty("offset", view.offset());
      g.writeNumberProperty("limit", view.limit());
      g.writeName("next_offset");
      if (next == null) {
        g.writeNull();
      } else {
        g.writeNumber(next.intValue());
      }
      raw(g, "rows", rows);
      g.writeName("array_omissions");
      g.writeStartArray();
      for (String k : omissions) {
        g.writeString(k);
      }
      g.writeEndArray();
      raw(g, "unknowns", unknowns);
      raw(g, "warnings", warnings);
      g.writeNumberProperty("warnings_omitted", omitted);
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  private static void raw(JsonGenerator g, String name, List<byte[]> items) {
    g.writeName(name);
    g.writeStartArray();
    for (byte[] b : items) {
      g.writeRawValue(new String(b, StandardCharsets.UTF_8));
    }
    g.writeEndArray();
  }
}
