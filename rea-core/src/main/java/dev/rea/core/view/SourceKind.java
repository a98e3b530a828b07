package dev.rea.core.view;

/**
 * How the Evidence behind a page was supplied (CONTRACT section 7, {@code
 * inspect_analysis_view}'s {@code source.kind}); written as the page's {@code source.kind}.
 */
public enum SourceKind {
  /** Evidence retained by the serving process, named by its ID. */
  RETAINED_EVIDENCE("retained-evidence"),
  /** Evidence read from a record or bundle file (the CLI's {@code --evidence_output} file). */
  EVIDENCE_FILE("evidence-file"),
  /** Evidence supplied inline with the request. */
  INLINE("inline");

  private final String wire;

  SourceKind(String wire) {
    this.wire = wire;
  }

  /** @return the JSON spelling */
  public String wire() {
    return wire;
  }
}
