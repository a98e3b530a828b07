package dev.rea.mcp;

/**
 * Tool descriptions, written for a model choosing and calling the tools: each says first when to
 * call the tool, then what it needs and returns in few words. The argument and result shapes are
 * in the schemas ({@code schemas.json}); together every tool REA serves stays within a 16 KB
 * {@code tools/list} budget ({@code ToolsListSizeTest}; figures in docs/mcp.md).
 */
final class Descriptions {
  private Descriptions() {}

  static final String INSPECT =
      """
      Call first for a local GGUF or safetensors model file: what its header declares (format, \
      digests, metadata, tensors, types with parameter counts and bytes, warnings), without \
      loading weights. The default summary is small; its parent_evidence_id names the complete \
      Evidence kept on the server: page it with inspect_analysis_view, then release_evidence. \
      hash "full" adds the file's SHA-256 (slow; progress, cancellable). view returns one page \
      with the summary. Totals are this file's only: for one member of a model (split.count \
      of 2 or more, a NAME-0000N-of-0000M shard) call inspect_model_set. One inspection at a \
      time (else resource_exhausted/provider_busy). Failures: isError with {error: {code, \
      constraint, message}}.""";

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
      Call instead of inspect_model_artifact for a model of several files: a sharded \
      safetensors checkpoint (path: its *.safetensors.index.json or its directory) or a GGUF \
      split set (path: any NAME-0000N-of-0000M.gguf). Reads every member's header and checks \
      the members against each other and the index (set_rejected names member, tensor and \
      field). Arguments as inspect_model_artifact. The summary gives set kind, members, types \
      and totals over all members; page the retained set with inspect_analysis_view \
      (collection members, tensors or metadata: rows carry member). complete: the signed \
      bundle, set record first.""";

  static final String VIEW =
      """
      Call to answer questions about rows of Evidence without reopening the model: tensors (by \
      names, name_glob such as "blk.0.*", types, indices, storage_validation), metadata (keys, \
      key_glob), per-type totals, or all elements of one array re-read from the unchanged \
      model file (collection array, key, offset, limit). source: retained-evidence with a summary's \
      parent_evidence_id (or an imported id), evidence-file with one signed record, or inline. \
      Returns a page of at most limit rows under 64 KiB; pass next_offset as the next offset. \
      unknowns lists values the header could not establish.""";

  static final String IMPORT =
      """
      Call to use Evidence saved earlier: a bundle file written by rea inspect-model-artifact \
      --evidence_output (path) or a bundle object (bundle), not both. Every record's id and \
      signature are checked before any is kept; returns their evidence_ids for \
      inspect_analysis_view. Counts against the session's 32 MiB retained budget.""";

  static final String RELEASE =
      """
      Call when done with retained Evidence (a summary's parent_evidence_id or an imported id) \
      to free its share of the 32 MiB retained budget; inspections and imports fail with \
      resource_exhausted/retained_budget when it is full. Later views of the id fail with \
      unknown_evidence.""";
}
