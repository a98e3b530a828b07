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
      evidence_id: parent_evidence_id}, and call release_evidence when done (retained Evidence \
      shares a 32 MiB budget; when full, calls fail with resource_exhausted/retained_budget \
      until you release some). With view, the summary also holds "page": the first page of that \
      selection. With detail "complete": the whole signed Evidence record (every metadata row, \
      tensor row, type row, coverage, limitations, warnings), not retained by the server; it can \
      be very large, so prefer summary plus views.

      One inspection runs at a time: a call while another runs fails at once with \
      resource_exhausted/provider_busy; retry later. Failures are results with isError true and \
      an error object {error: {code, category, constraint, message, details}}; a full hash that \
      fails or is cancelled after the header validated also carries partial_evidence.""";

  static final String SERVER =
      """
      REA reports what GGUF and safetensors model files declare (metadata, tensor directory, \
      types, offsets, byte lengths, parameter counts, digests) by reading only their headers. \
      Start with inspect_model_artifact (summary by default), or inspect_model_set for a model \
      of several files (sharded safetensors, gguf-split); page through the retained \
      complete Evidence with inspect_analysis_view; import saved Evidence bundles with \
      import_evidence_bundle; free retained Evidence with release_evidence. Paths are absolute \
      paths on the server's machine.""";

  static final String SET =
      """
      Inspect a model made of several files: a sharded safetensors checkpoint (path: its \
      *.safetensors.index.json or the directory holding it) or a GGUF split set \
      (NAME-00001-of-00003.gguf: any member). Every member is read as inspect_model_artifact \
      reads one file, and the members are checked against each other and the index (a \
      contradiction fails with set_rejected, naming member, tensor and field). Arguments as \
      inspect_model_artifact. Summary (default): a model-set-summary (set kind, member count, \
      types and totals over all members); the set stays retained: page it with \
      inspect_analysis_view, source {kind: "retained-evidence", evidence_id: \
      parent_evidence_id}, collection "members", "tensors" or "metadata" (rows carry member) or \
      "types"; release_evidence releases the set and its members. complete: the signed bundle \
      (set record, then each member's record).""";

  static final String VIEW =
      """
      Return one page of rows from complete Evidence, without reopening the model file. Use it \
      after inspect_model_artifact (summary) to answer questions about tensors, metadata or \
      types, and to page through them.

      source (required), one of: {kind: "retained-evidence", evidence_id} for Evidence this \
      session retains (a summary's parent_evidence_id, or an id from import_evidence_bundle); \
      {kind: "evidence-file", path} for a saved Evidence record file (absolute path); \
      {kind: "inline", evidence} with a complete signed Evidence record. Both take one record \
      (schema rea.evidence.v1), not a bundle (rea.bundle.v1, e.g. written by `rea \
      inspect-model-artifact --evidence_output`): import a bundle with import_evidence_bundle \
      and use {kind: "retained-evidence", evidence_id}. Files and inline Evidence must be signed by this provider's key or a key \
      in $REA_HOME/trusted/, and are refused with invalid_input/evidence_rejected otherwise.

      view (required): {kind: "model-artifact", collection: "tensors"|"metadata"|"types", \
      names? (tensors), keys? (metadata, e.g. ["tokenizer.chat_template"]), types? (tensors, \
      types: exact labels like "Q4_K" or "AMBIGUOUS_16"), indices?, storage_validation? \
      (tensors: ["consistent"|"unknown"]), fields? (columns; index is always kept), offset? \
      (default 0), limit? (1..256, default 32)}. Filters intersect; omitted means all, [] means \
      none.

      Returns a model-artifact-page: rows (with their original index), total_matches, offset, \
      limit, next_offset (pass it as the next view's offset; null on the last page), \
      array_omissions (metadata arrays whose preview is incomplete), unknowns (rows with \
      undetermined type, byte_length or storage validation), warnings, and source identity. A \
      page stays under 64 KiB, so it may hold fewer rows than limit. A bad view is \
      invalid_input/bad_view; an unknown or released evidence_id is \
      invalid_input/unknown_evidence.""";

  static final String IMPORT =
      """
      Import saved Evidence into this session so inspect_analysis_view can page through it with \
      source {kind: "retained-evidence", evidence_id}. Give exactly one of: path (absolute path \
      of a bundle file, e.g. written by `rea inspect-model-artifact --evidence_output`) or \
      bundle (the bundle object {schema: "rea.bundle.v1", records: [...]}). Only bundles are \
      imported: a single record (file or object) is refused with invalid_input/evidence_rejected \
      (wrap it in a bundle, or page through it directly with inspect_analysis_view). Every record is checked (id, Ed25519 signature by a trusted key, schema, \
      positional indices, unique names/keys/types) before anything is retained; any failure is \
      invalid_input/evidence_rejected and nothing is imported. Returns {evidence_ids: [...]} in \
      bundle order. Retained Evidence counts against the session's 32 MiB budget \
      (resource_exhausted/retained_budget when it does not fit); free it with \
      release_evidence.""";

  static final String RELEASE =
      """
      Release Evidence this session retains (from an inspect_model_artifact summary or \
      import_evidence_bundle), freeing its share of the 32 MiB retained budget. Argument: \
      evidence_id. Returns {released: true}. Afterwards views of that id fail with \
      invalid_input/unknown_evidence (as does releasing it again). Evidence saved in files is \
      not affected.""";
}
