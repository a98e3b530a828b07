package dev.rea.cli;

import dev.rea.core.ModelUnits;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import tools.jackson.databind.JsonNode;

/**
 * The note a readable report adds to the totals of one member of a GGUF split set (llama.cpp's
 * gguf-split writes {@code split.no} and {@code split.count} in every member) or of a safetensors
 * file named as a checkpoint's shard: its totals are the member's, and {@code inspect-model-set}
 * gives the whole model's (CONTRACT section 9).
 */
final class SplitMember {
  private SplitMember() {}

  /**
   * @return the note for a record, or "" when it is not a member of a set of two or more: a
   *     split member, or a safetensors file named as a checkpoint's shard
   */
  static String note(EvidenceRecord r) {
    if ("safetensors".equals(r.artifact().format())) {
      return shard(r.artifact().path());
    }
    long no = -1;
    long count = -1;
    for (MetadataRow m : r.metadata()) {
      if (m.value() instanceof MetadataValue.IntegerValue v) {
        if (m.key().equals("split.no")) {
          no = v.bits();
        } else if (m.key().equals("split.count")) {
          count = v.bits();
        }
      }
    }
    return text(no, count);
  }

  /** @return the note for a safetensors file's path, or "" when it is not named as a shard */
  private static String shard(String path) {
    int slash = path.lastIndexOf('/');
    String name = slash < 0 ? path : path.substring(slash + 1);
    if (!ModelUnits.isShardName(name)) {
      return "";
    }
    return "; of this file only, named as one shard of a checkpoint"
        + " (rea inspect-model-set PATH totals the whole model)";
  }

  /**
   * @return the note for a file's summary ({@code --detail summary}), as {@link
   *     #note(EvidenceRecord)} gives it for the record
   */
  static String ofSummary(JsonNode summary) {
    JsonNode artifact = summary.path("artifact");
    if ("safetensors".equals(artifact.path("format").asString())) {
      return shard(artifact.path("path").asString());
    }
    return note(summary.get("headline_metadata"));
  }

  /** @return the note for a summary's headline rows, or "" */
  private static String note(JsonNode headline) {
    long no = -1;
    long count = -1;
    if (headline != null) {
      for (JsonNode h : headline) {
        String key = h.get("key").asString();
        if (key.equals("split.no") && h.get("value").canConvertToLong()) {
          no = h.get("value").asLong();
        } else if (key.equals("split.count") && h.get("value").canConvertToLong()) {
          count = h.get("value").asLong();
        }
      }
    }
    return text(no, count);
  }

  private static String text(long no, long count) {
    if (no < 0 || count < 2 || no >= count) {
      return "";
    }
    // Numbered as the file declares it and as set reports number members: from 0.
    return "; of this file only, member " + no + " of a split set of " + count
        + " (split.no " + no + "; rea inspect-model-set PATH totals the whole model)";
  }
}
