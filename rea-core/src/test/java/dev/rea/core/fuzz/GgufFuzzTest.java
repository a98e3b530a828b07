package dev.rea.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rea.core.internal.format.gguf.GgufReader;

/**
 * Fuzzes the GGUF reader (docs/fuzzing.md). In a normal test run this replays every file under
 * {@code src/test/resources/dev/rea/core/fuzz/GgufFuzzTestInputs/readGguf/} (real files, the
 * hand-built edge cases, every finding); with {@code JAZZER_FUZZ=1} it fuzzes. The oracle is
 * {@link FuzzOracle#checkReader}: only {@code ReaException} may escape, and accepted inputs
 * satisfy the record invariants.
 */
class GgufFuzzTest {
  private static final GgufReader READER = new GgufReader();

  @FuzzTest(maxDuration = "10m")
  void readGguf(byte[] input) {
    FuzzOracle.checkReader(READER, input);
  }
}
