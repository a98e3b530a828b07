package dev.rea.mcp;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.options.HashMode;
import java.util.List;

/**
 * The {@code format} argument of {@code inspect_model_artifact} and {@code inspect_model_set}
 * (CONTRACT section 13): {@code rea} (default) answers with REA's own JSON; {@code in-toto} with
 * a DSSE envelope holding an in-toto Statement signed with the server's key, {@code cyclonedx}
 * with a CycloneDX 1.6 ML-BOM. A standard format describes the complete Evidence: its detail is
 * {@code complete} (the default when {@code format} is given), {@code detail: "summary"} and
 * {@code view} are refused, and {@code in-toto} needs {@code hash: "full"} (the subject is the
 * file's full SHA-256). Every refusal is {@code invalid_input} / {@code conflicting_choices},
 * before any file is opened.
 */
enum FormatArg {
  REA("rea"),
  IN_TOTO("in-toto"),
  CYCLONEDX("cyclonedx");

  static final String NAME = "format";

  private final String wire;

  FormatArg(String wire) {
    this.wire = wire;
  }

  /**
   * @return the format asked for
   * @throws ReaException {@code bad_argument} for another value
   */
  static FormatArg of(Args a) throws ReaException {
    String text = a.choice(NAME, "rea", List.of("rea", "in-toto", "cyclonedx"));
    for (FormatArg f : values()) {
      if (f.wire.equals(text)) {
        return f;
      }
    }
    throw new IllegalStateException(text);
  }

  /**
   * @return the {@code detail} argument, defaulting to {@code summary} for {@code rea} and to
   *     {@code complete} for a standard format
   * @throws ReaException {@code bad_argument} for another value; {@code conflicting_choices} for
   *     a standard format with {@code summary}, a {@code view}, or (in-toto) a header-only hash
   */
  String detail(Args a, HashMode hash, boolean view) throws ReaException {
    List<String> allowed = List.of("summary", "complete");
    if (this == REA) {
      return a.choice("detail", "summary", allowed);
    }
    String detail = a.choice("detail", "complete", allowed);
    if (detail.equals("summary") || view) {
      throw Failures.conflicting(
          view ? "view" : "detail",
          "format \"" + wire + "\" describes the complete Evidence; it cannot be combined with "
              + (view ? "view" : "detail: \"summary\"") + ". Omit " + (view ? "view" : "detail")
              + ", or use format \"rea\".");
    }
    if (this == IN_TOTO && hash != HashMode.FULL) {
      throw Failures.conflicting(
          "hash",
          "format \"in-toto\" needs hash: \"full\": an attestation's subject is the file's full"
              + " SHA-256, which a header-only read does not have.");
    }
    return detail;
  }

  /** @return one file's signed Evidence in this standard format */
  byte[] of(Rea rea, EvidenceRecord signed) throws ReaException {
    return this == IN_TOTO ? rea.inTotoEnvelope(signed) : Rea.cycloneDxBom(List.of(signed));
  }

  /** @return a set's signed Evidence in this standard format */
  byte[] ofSet(Rea rea, ModelSetRecord set, List<EvidenceRecord> members) throws ReaException {
    return this == IN_TOTO ? rea.inTotoEnvelope(set, members) : Rea.cycloneDxBom(set, members);
  }
}
