package dev.rea.cli;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What to do instead, in this command line's terms, for a failure whose {@code
 * diagnostics.detected} names a common slip: a model file given as Evidence, a summary or page
 * given as Evidence, or saved Evidence given as a model. The core library says what the file is;
 * the words that name commands and options are the command line's own (the MCP server has its
 * own advice in its tools' terms).
 */
final class Advice {
  private Advice() {}

  /**
   * @param e the failure about to be reported (once)
   * @return {@code e} with the advice after its message (code, constraint, field, offset, path and
   *     diagnostics kept), or {@code e} itself when it is not a slip this knows
   */
  static ReaException advise(ReaException e) {
    String todo = todo(e.constraint(), e.diagnostics().get("detected"));
    if (todo == null
        && e.constraint() == Constraint.NOT_REGULAR_FILE
        && e.getMessage().startsWith("the path is a directory")) {
      todo = "a model of several files in it is inspected with inspect-model-set DIR, every model"
          + " under it with scan DIR";
    }
    if (todo == null
        && e.constraint() == Constraint.UNSUPPORTED_FORMAT
        && e.getMessage().startsWith("the directory holds no GGUF file")) {
      todo = "models in the directories below it are found by scan DIR";
    }
    if (todo == null
        && e.constraint() == Constraint.AMBIGUOUS_SET
        && e.getMessage().startsWith("the directory holds ")
        && e.diagnostics().get("units") instanceof List<?> units) {
      todo = severalModels(units);
    }
    // A failure passed on is advised once: a second call finds the advice already said.
    return todo == null || e.getMessage().endsWith(": " + todo)
        ? e
        : e.toBuilder(e.getMessage() + ": " + todo).build();
  }

  /**
   * For a directory of several models: the shell patterns that name each of them ({@code
   * DIR/*.safetensors} covers indexes and their shards, which check reads once per checkpoint)
   * and the scan. A plain {@code DIR/*} would also name {@code config.json} and the other files
   * of a model repository, which fail as files that are not models.
   */
  private static String severalModels(List<?> anchors) {
    Set<String> patterns = new LinkedHashSet<>();
    boolean other = false;
    for (Object a : anchors) {
      String name = String.valueOf(a).toLowerCase(Locale.ROOT);
      if (name.endsWith(".gguf")) {
        patterns.add("DIR/*.gguf");
      } else if (name.endsWith(".safetensors") || name.endsWith(".safetensors.index.json")) {
        patterns.add("DIR/*.safetensors");
      } else {
        other = true;
      }
    }
    String each =
        patterns.isEmpty() || other
            ? "check DIR/NAME... checks each model named"
            : "check " + String.join(" ", patterns) + " checks each of them";
    return each + " (not DIR/*, which names its other files too), scan DIR every model below it";
  }

  private static @Nullable String todo(Constraint constraint, @Nullable Object detected) {
    if (constraint == Constraint.EVIDENCE_REJECTED) {
      if ("gguf".equals(detected) || "safetensors".equals(detected)) {
        return "inspect it with inspect-model-artifact (save its Evidence with --evidence_output"
            + " FILE and query that file)";
      }
      if ("model-artifact-summary".equals(detected) || "model-artifact-page".equals(detected)) {
        String kind = "model-artifact-summary".equals(detected) ? "summary" : "page";
        return "query the complete Evidence that --evidence_output FILE wrote (the "
            + kind
            + "'s parent_evidence_id names it)";
      }
      return null;
    }
    if (constraint == Constraint.UNSUPPORTED_FORMAT && "safetensors_index".equals(detected)) {
      return "inspect the whole model with inspect-model-set PATH (the index, a shard, or their"
          + " directory)";
    }
    if (constraint == Constraint.UNSUPPORTED_FORMAT && "rea_evidence".equals(detected)) {
      return "read it with inspect-analysis-view --source FILE --view"
          + " '{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}'";
    }
    return null;
  }
}
