package dev.rea.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;

/**
 * Fuzzes the safetensors reader (docs/fuzzing.md). A normal test run replays every file under
 * {@code src/test/resources/dev/rea/core/fuzz/SafetensorsFuzzTestInputs/readSafetensors/};
 * {@code JAZZER_FUZZ=1} fuzzes. Oracle: {@link FuzzOracle#checkReader}.
 */
class SafetensorsFuzzTest {
  private static final SafetensorsReader READER = new SafetensorsReader();

  @FuzzTest(maxDuration = "10m")
  void readSafetensors(byte[] input) {
    FuzzOracle.checkReader(READER, input);
  }
}
