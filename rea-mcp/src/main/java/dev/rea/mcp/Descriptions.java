package dev.rea.mcp;

/** Tool descriptions, written for a model choosing and calling the tools. */
final class Descriptions {
  private Descriptions() {}

  static final String INSPECT =
      """
      Report exactly what a local GGUF (v2/v3) or safetensors model file declares, reading only \
      its header (never loading weights or running code). Detection is by content, not file name.

      Arguments: path (absolute path on the server's machine, required); hash: "header" \
      (default, fast, any size) or "full" (also SHA-256 of the whole file: slow for big files, \
      sends progress notifications when you pass a progress token, can be cancelled); detail: \
      "summary" (default) or "complete"; view (optional, with summary only): one page of rows \
      selected with {collection: "tensors"|"metadata"|"types", names?, keys?, types?, indices?, \
      storage_validation?, fields?, offset?, limit?}.

      Returns, with detail "summary": a compact model-artifact-summary (format, sizes, digests, \
      counts, short headline metadata, chat-template presence, totals, warnings) whose \
      parent_evidence_id names the complete Evidence the server keeps for this session; page \
      through its rows with inspect_analysis_view and source {kind: "retained-evidence", \
      evidence_id: parent_evidence_id}, and call release_evidence when done. With detail \
      "complete": the whole Evidence record (every metadata row, tensor row, type row, coverage, \
      limitations, warnings); it can be very large, so prefer summary plus views.

      One inspection runs at a time: a call while another runs fails at once with \
      resource_exhausted/provider_busy; retry later. Failures are results with isError true and \
      an error object {error: {code, category, constraint, message, details}}; a full hash that \
      fails or is cancelled after the header validated also carries partial_evidence.""";

  static final String SERVER =
      """
      REA reports what GGUF and safetensors model files declare (metadata, tensor directory, \
      types, offsets, byte lengths, parameter counts, digests) by reading only their headers. \
      Start with inspect_model_artifact (summary by default); page through the retained \
      complete Evidence with inspect_analysis_view; import saved Evidence bundles with \
      import_evidence_bundle; free retained Evidence with release_evidence. Paths are absolute \
      paths on the server's machine.""";
}
