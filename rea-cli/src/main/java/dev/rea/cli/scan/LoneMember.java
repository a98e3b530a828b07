package dev.rea.cli.scan;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
  private static final Pattern SHARD = Pattern.compile(".+-([0-9]{5})-of-([0-9]{5})\\.safetensors");

  private LoneMember() {}

  /**
   * @param path the file
   * @param record its complete record
   * @return whether it is a lone shard by name or declares {@code split.count} of 2 or more
   */
  static boolean is(Path path, EvidenceRecord record) {
    Path name = path.getFileName();
    if (name != null && "safetensors".equals(record.artifact().format())) {
      Matcher m = SHARD.matcher(name.toString());
      if (m.matches()) {
        int number = Integer.parseInt(m.group(1));
        int count = Integer.parseInt(m.group(2));
        return count >= 2 && number >= 1 && number <= count;
      }
      return false;
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
