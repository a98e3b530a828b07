package dev.rea.core.view;

import dev.rea.core.internal.view.ViewPages;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * One answered page (CONTRACT section 4, {@code model-artifact-page}).
 *
 * @param json the page object as compact UTF-8 JSON, at most {@link ViewPages#PAGE_BUDGET_BYTES}
 *     bytes
 * @param totalMatches rows the view's filters match
 * @param offset the view's offset
 * @param limit the view's limit
 * @param nextOffset where the next page starts, or null when this page reaches the last match
 * @param rowIndices the original indices of the rows on this page, in order
 * @param warningsOmitted record warnings left out of this page for lack of room
 */
public record ViewPage(
    byte[] json,
    int totalMatches,
    int offset,
    int limit,
    @Nullable Integer nextOffset,
    int[] rowIndices,
    int warningsOmitted) {
  /** @return the page JSON as text */
  public String text() {
    return new String(json, StandardCharsets.UTF_8);
  }
}
