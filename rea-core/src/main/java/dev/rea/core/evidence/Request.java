package dev.rea.core.evidence;

import java.util.Objects;

/**
 * What was asked (CONTRACT section 3, {@code request}).
 *
 * @param path the selected path as recorded (absolute)
 * @param hash {@code "header"} or {@code "full"}
 */
public record Request(String path, String hash) {
  public Request {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(hash, "hash");
  }
}
