package dev.rea.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.EvidenceImport;

/**
 * Fuzzes Evidence import (docs/fuzzing.md): records and bundles read by {@link EvidenceImport}.
 * A normal test run replays {@code EvidenceImportFuzzTestInputs/importEvidence/}; {@code
 * JAZZER_FUZZ=1} fuzzes. Oracle: only {@code ReaException} escapes, and accepted records satisfy
 * the record invariants ({@link FuzzOracle#checkImported}).
 */
class EvidenceImportFuzzTest {
  private static final EvidenceImport IMPORT = EvidenceImport.standard();

  @FuzzTest(maxDuration = "10m")
  void importEvidence(byte[] input) {
    EvidenceImport.Imported imported;
    try {
      imported = IMPORT.read(input);
    } catch (ReaException e) {
      FuzzOracle.checkTyped(e);
      return;
    }
    FuzzOracle.checkImported(imported);
  }
}
