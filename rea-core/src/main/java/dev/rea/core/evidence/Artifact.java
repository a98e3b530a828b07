package dev.rea.core.evidence;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The inspected file (CONTRACT section 3, {@code artifact}).
 *
 * @param path the exact selected path, absolute
 * @param format {@code "gguf"} or {@code "safetensors"}
 * @param fileSize file size in bytes
 * @param headerLength bytes of the header: GGUF up to the end of the tensor directory (alignment
 *     padding excluded); safetensors the 8-byte prefix plus the JSON
 * @param headerSha256 lowercase hex SHA-256 of the first {@code headerLength} bytes; null only in
 *     partial records whose header was not completed
 * @param sha256 lowercase hex SHA-256 of the whole file, only for a verified full hash
 * @param bytesRead bytes REA fetched from the file
 * @param readScope {@code "header"} or {@code "full"}
 * @param identity the file identity observed
 */
public record Artifact(
    String path,
    String format,
    long fileSize,
    long headerLength,
    @Nullable String headerSha256,
    @Nullable String sha256,
    long bytesRead,
    String readScope,
    FileIdentity identity) {
  public Artifact {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(readScope, "readScope");
    Objects.requireNonNull(identity, "identity");
  }
}
