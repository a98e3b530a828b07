package dev.rea.cli.scan;

import dev.rea.core.ModelUnits;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import java.nio.file.Path;

/**
 * Tells a file unit that is one member of a model by its own account, whose totals are therefore
 * not the model's (CONTRACT section 9, a set of one of kind {@code single_file}): a safetensors
 * file named {@code PREFIX-NNNNN-of-MMMMM.safetensors} with {@code MMMMM} of 2 or more and {@code
 * NNNNN} from 1 to it (Hugging Face {@code save_pretrained}'s shard names; an index that names it
 * would have grouped it into the index's set), or a file whose metadata declares {@code
 * split.count} of 2 or more (llama.cpp gguf-split writes it in every member; a member named as
 * gguf-split names members is grouped into its split set). These are the files for which rea-core's
 * set checks warn {@code shard_without_index} and {@code split_member_alone}.
 */
final class LoneMember {
  private LoneMember() {}

  /**
   * @param path the file
   * @param record its complete record
   * @return whether it is a lone shard by name or declares {@code split.count} of 2 or more
   */
  static boolean is(Path path, EvidenceRecord record) {
    Path name = path.getFileName();
    if (name != null && "safetensors".equals(record.artifact().format())) {
      return ModelUnits.isShardName(name.toString());
    }
    for (MetadataRow row : record.metadata()) {
      if (row.key().equals("split.count")
          && row.value() instanceof MetadataValue.IntegerValue v
          && v.bits() >= 2) {
        return true;
      }
    }
    return false;
  }
}
