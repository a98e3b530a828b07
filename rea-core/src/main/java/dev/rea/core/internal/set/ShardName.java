package dev.rea.core.internal.set;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The name of one shard of a sharded safetensors checkpoint, {@code PREFIX-NNNNN-of-MMMMM.safetensors}
 * as Hugging Face {@code save_pretrained} names them (huggingface_hub's {@code
 * split_torch_state_dict_into_shards} pattern {@code "model{suffix}.safetensors"} with suffix
 * {@code "-{i:05d}-of-{n:05d}"}). Only a hint: a checkpoint's members are what its index names
 * (CONTRACT section 9); the name says a file is one of several when no index names it.
 *
 * @param prefix everything before {@code -NNNNN-of-MMMMM.safetensors} (not empty)
 * @param number the shard number, 1 to {@code count}
 * @param count the number of shards, at least 2
 */
public record ShardName(String prefix, int number, int count) {
  private static final Pattern NAME =
      Pattern.compile("(.+)-([0-9]{5})-of-([0-9]{5})\\.safetensors");

  /** @return the parts of a shard's name, or null when the name is not one of 2 or more */
  public static @Nullable ShardName parse(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return null;
    }
    int number = Integer.parseInt(m.group(2));
    int count = Integer.parseInt(m.group(3));
    if (count < 2 || number < 1 || number > count) {
      return null;
    }
    return new ShardName(m.group(1), number, count);
  }
}
