package dev.rea.cli;

import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.options.HashMode;
import java.util.List;

/**
 * The {@code --format} of a command (CONTRACT section 13): REA's own output, or a standard
 * format other tools read. Checked with the other options before any file is read.
 */
enum StandardFormat {
  /** REA's own JSON and readable reports (sections 3 to 12). */
  REA("rea"),
  /** An in-toto Statement v1 in a DSSE envelope signed with REA's key. */
  IN_TOTO("in-toto"),
  /** A CycloneDX 1.6 ML-BOM. */
  CYCLONEDX("cyclonedx"),
  /** A SARIF 2.1.0 log (scan and check). */
  SARIF("sarif");

  final String wire;

  StandardFormat(String wire) {
    this.wire = wire;
  }

  /**
   * The format of {@code inspect-model-artifact} and {@code inspect-model-set}: rea, in-toto or
   * cyclonedx. A standard format describes the complete Evidence, so it takes complete detail and no view; in-toto needs
   * {@code --hash full}, since without a full digest there is no subject to attest.
   *
   * @throws ReaException {@code bad_argument} for another name; {@code conflicting_choices} for
   *     the combinations above
   */
  static StandardFormat forInspection(
      String text, HashMode hash, Arguments.Detail detail, boolean view) throws ReaException {
    StandardFormat f = parse(text, List.of(REA, IN_TOTO, CYCLONEDX));
    if (f == REA) {
      return f;
    }
    if (detail == Arguments.Detail.SUMMARY || view) {
      throw conflicting(
          "--format " + f.wire + " describes the complete Evidence; it cannot be combined with "
              + (view ? "--view" : "--detail summary"));
    }
    if (f == IN_TOTO && hash != HashMode.FULL) {
      throw conflicting(
          "--format in-toto needs --hash full: an attestation's subject is the file's full"
              + " SHA-256, which a header-only read does not have");
    }
    return f;
  }

  /**
   * The format of {@code check}: rea or sarif.
   *
   * @throws ReaException {@code bad_argument} for another name
   */
  static StandardFormat forCheck(String text) throws ReaException {
    return parse(text, List.of(REA, SARIF));
  }

  /** @return the complete Evidence of one file in this format (in-toto: {@code record} signed) */
  byte[] of(Rea rea, EvidenceRecord record) throws ReaException {
    return switch (this) {
      case IN_TOTO -> rea.inTotoEnvelope(record);
      case CYCLONEDX -> Rea.cycloneDxBom(List.of(record));
      default -> throw new IllegalStateException("not a format of one file's Evidence: " + wire);
    };
  }

  /**
   * @return the complete Evidence of a model set in this format (in-toto: {@code set} and
   *     {@code members} signed)
   */
  byte[] ofSet(Rea rea, ModelSetRecord set, List<EvidenceRecord> members) throws ReaException {
    return switch (this) {
      case IN_TOTO -> rea.inTotoEnvelope(set, members);
      case CYCLONEDX -> Rea.cycloneDxBom(set, members);
      default -> throw new IllegalStateException("not a format of a set's Evidence: " + wire);
    };
  }

  private static StandardFormat parse(String text, List<StandardFormat> allowed)
      throws ReaException {
    for (StandardFormat f : allowed) {
      if (f.wire.equals(text)) {
        return f;
      }
    }
    StringBuilder names = new StringBuilder();
    for (StandardFormat f : allowed) {
      names.append(names.length() == 0 ? "" : ", ").append(f.wire);
    }
    throw ReaException.builder(
            Constraint.BAD_ARGUMENT,
            "--format must be one of " + names + ", not '" + ReaException.truncateForMessage(text) + "'")
        .field("--format")
        .build();
  }

  private static ReaException conflicting(String message) {
    return ReaException.builder(Constraint.CONFLICTING_CHOICES, message).field("--format").build();
  }
}
