package dev.rea.core.error;

/**
 * The program that reports a failure to its user: the {@code rea} command or the MCP server. A
 * core failure that recognises a common slip says what the file is and names it in {@code
 * diagnostics.detected}; the program reporting it adds what to do instead in its own commands,
 * options or tools ({@link #advise}), since the two name them differently.
 */
public enum Surface {
  /** The {@code rea} command line. */
  CLI,
  /** The {@code rea mcp} server's tools. */
  MCP;

  /**
   * Adds this surface's advice to a failure whose {@code detected} diagnostic names a slip it
   * knows; any other failure is returned as it is. The code, constraint, field, offset, path,
   * diagnostics and partial Evidence are kept; only the message grows.
   *
   * @param e the failure about to be reported (once)
   * @return the failure to report
   */
  public ReaException advise(ReaException e) {
    String todo = todo(e.constraint(), e.diagnostics().get("detected"));
    return todo == null ? e : e.toBuilder(e.getMessage() + ": " + todo).build();
  }

  private String todo(Constraint constraint, Object detected) {
    if (constraint == Constraint.EVIDENCE_REJECTED) {
      // A file given as Evidence (EvidenceLoader names what it is).
      if ("gguf".equals(detected) || "safetensors".equals(detected)) {
        return this == CLI
            ? "inspect it with inspect-model-artifact (save its Evidence with --evidence_output"
                + " FILE and query that file)"
            : "inspect it with inspect_model_artifact (the summary's parent_evidence_id names"
                + " its complete Evidence, which the server retains: query it with"
                + " inspect_analysis_view and source {kind: \"retained-evidence\", evidence_id})";
      }
      if ("model-artifact-summary".equals(detected) || "model-artifact-page".equals(detected)) {
        String kind = detected.equals("model-artifact-summary") ? "summary" : "page";
        return this == CLI
            ? "query the complete Evidence that --evidence_output FILE wrote (the "
                + kind
                + "'s parent_evidence_id names it)"
            : "query the complete Evidence its parent_evidence_id names, with source {kind:"
                + " \"retained-evidence\", evidence_id} while the server that returned it"
                + " retains it";
      }
      return null;
    }
    if (constraint == Constraint.UNSUPPORTED_FORMAT && "rea_evidence".equals(detected)) {
      return this == CLI
          ? "read it with inspect-analysis-view --source FILE --view"
              + " '{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}'"
          : "read it with inspect_analysis_view and source {kind: \"evidence-file\", path},"
              + " or retain a bundle with import_evidence_bundle";
    }
    return null;
  }
}
