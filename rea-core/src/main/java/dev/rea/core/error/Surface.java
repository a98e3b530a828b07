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
