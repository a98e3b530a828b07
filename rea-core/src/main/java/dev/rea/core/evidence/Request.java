package dev.rea.core.evidence;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What was asked (CONTRACT sections 3 and 12, {@code request}).
 *
 * @param path the selected path as recorded (absolute)
 * @param hash {@code "header"} or {@code "full"}
 * @param assumeLayout the layout assumption the caller stated ({@code "ggml-modern"}), or null
 *     when none (then the member is absent from the JSON)
 */
public record Request(String path, String hash, @Nullable String assumeLayout) {
  public Request {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(hash, "hash");
  }

  /** A request without a layout assumption. */
  public Request(String path, String hash) {
    this(path, hash, null);
  }
}
