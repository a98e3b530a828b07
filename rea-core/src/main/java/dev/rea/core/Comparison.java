package dev.rea.core;

import java.util.Objects;

/**
 * What differs between the declarations of two files, sets or saved Evidence (CONTRACT section
 * 11), from {@link Rea#compare}.
 *
 * @param sameDeclarations true when nothing but per-run and per-path fields (paths, identities,
 *     digests, evidence ids, {@code observed_at}, signatures) differs
 * @param json the {@code model-artifact-diff} object of CONTRACT section 11, UTF-8
 */
public record Comparison(boolean sameDeclarations, byte[] json) {
  public Comparison {
    Objects.requireNonNull(json, "json");
  }
}
