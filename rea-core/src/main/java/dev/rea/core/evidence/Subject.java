package dev.rea.core.evidence;

import java.util.Objects;

/**
 * The Evidence subject: present only when the whole file was hashed and its identity verified.
 *
 * @param kind always {@code "file"}
 * @param sha256 lowercase hex SHA-256 of the whole file
 */
public record Subject(String kind, String sha256) {
  public Subject {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(sha256, "sha256");
  }
}
