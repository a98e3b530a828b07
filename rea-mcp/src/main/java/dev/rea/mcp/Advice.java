package dev.rea.mcp;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import org.jspecify.annotations.Nullable;

/**
 * What to do instead, in this server's tools' terms, for a failure whose {@code
 * diagnostics.detected} names a common slip: a model file given as Evidence, a summary or page
 * given as Evidence, or saved Evidence given as a model. The core library says what the file is;
 * the words that name tools and arguments are the server's own (the command line has its own
 * advice in its commands' terms).
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
    return todo == null ? e : e.toBuilder(e.getMessage() + ": " + todo).build();
  }

  /**
   * The advice of {@link #advise} for a failure of {@code inspect_model_artifact}, and for a
   * directory given to it: a model of several files is read by {@code inspect_model_set}.
   *
   * @param e the inspection's failure
   * @return {@code e} with the directory's advice after its message, or as {@link #advise} has it
   */
  static ReaException forInspection(ReaException e) {
    if (e.constraint() == Constraint.NOT_REGULAR_FILE
        && e.getMessage().startsWith("the path is a directory")) {
      return e.toBuilder(
              e.getMessage()
                  + ": a model of several files in it (a sharded checkpoint, a GGUF split set) is"
                  + " inspected with inspect_model_set and the same path")
          .build();
    }
    return e;
  }

  private static @Nullable String todo(Constraint constraint, @Nullable Object detected) {
    if (constraint == Constraint.EVIDENCE_REJECTED) {
      if ("gguf".equals(detected) || "safetensors".equals(detected)) {
        return "inspect it with inspect_model_artifact (the summary's parent_evidence_id names"
            + " its complete Evidence, which the server retains: query it with"
            + " inspect_analysis_view and source {kind: \"retained-evidence\", evidence_id})";
      }
      if ("model-artifact-summary".equals(detected) || "model-artifact-page".equals(detected)) {
        return "query the complete Evidence its parent_evidence_id names, with source {kind:"
            + " \"retained-evidence\", evidence_id} while the server that returned it"
            + " retains it";
      }
      return null;
    }
    if (constraint == Constraint.UNSUPPORTED_FORMAT && "safetensors_index".equals(detected)) {
      return "inspect the whole model with inspect_model_set and the same path";
    }
    if (constraint == Constraint.UNSUPPORTED_FORMAT && "rea_evidence".equals(detected)) {
      return "read it with inspect_analysis_view and source {kind: \"evidence-file\", path},"
          + " or retain a bundle with import_evidence_bundle";
    }
    return null;
  }
}
