package dev.rea.core;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What makes a unit fail a check (CONTRACT section 12): it fails when it is rejected, when its
 * full SHA-256 differs from the expected one, on every warning whose code is not allowed (REA's
 * warnings all say a file is damaged, obsolete or inconsistent) and, when asked, on every
 * limitation whose code is not allowed. Allowing a limitation code is what lets a K-quant file
 * pass {@code --fail-on limitations} once its layout is stated: the {@code layout_assumed}
 * limitation then records the caller's own statement (README, "What changed, and is it OK":
 * the decision and its reason). Immutable.
 *
 * @param expectSha256 the full SHA-256 the file must have (lowercase hex), or null; when given,
 *     the unit is inspected with a full hash
 * @param allow warning and limitation codes that do not fail the unit ({@link #warningCodes},
 *     {@link #limitationCodes})
 * @param failOnLimitations true to fail on limitations too
 */
public record CheckPolicy(
    @Nullable String expectSha256, Set<String> allow, boolean failOnLimitations) {
  public CheckPolicy {
    if (expectSha256 != null) {
      expectSha256 = expectSha256.toLowerCase(Locale.ROOT);
      if (!expectSha256.matches("[0-9a-f]{64}")) {
        throw new IllegalArgumentException(
            "expectSha256 must be 64 hexadecimal digits, not " + expectSha256.length() + " characters");
      }
    }
    allow = Set.copyOf(Objects.requireNonNull(allow, "allow"));
  }

  /** @return fail on rejections and every warning; no digest expected */
  public static CheckPolicy strict() {
    return new CheckPolicy(null, Set.of(), false);
  }

  /** @return the expected digest, if any */
  public Optional<String> expected() {
    return Optional.ofNullable(expectSha256);
  }

  /**
   * The codes of every warning a record or set record may carry (CONTRACT sections 3, 9 and 12):
   * what {@code allowed} may name.
   *
   * @return the codes, in code-point order
   */
  public static java.util.SortedSet<String> warningCodes() {
    return dev.rea.core.internal.formats.SarifRules.warningCodes();
  }

  /**
   * The codes of every limitation a record or set record may carry (CONTRACT sections 3, 9 and
   * 12): what {@code allowed} may also name, for a check that fails on limitations.
   *
   * @return the codes, in code-point order
   */
  public static java.util.SortedSet<String> limitationCodes() {
    return dev.rea.core.internal.formats.SarifRules.limitationCodes();
  }
}
