package dev.rea.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.set.SafetensorsIndex;
import dev.rea.core.internal.set.SafetensorsIndexReader;
import dev.rea.core.internal.set.WeightMap;
import dev.rea.core.options.Limits;
import java.util.EnumSet;
import java.util.Set;

/**
 * Fuzzes the safetensors index reader (CONTRACT section 9; docs/fuzzing.md). A normal test run
 * replays every file under {@code
 * src/test/resources/dev/rea/core/fuzz/SafetensorsIndexFuzzTestInputs/readIndex/}; {@code
 * JAZZER_FUZZ=1} fuzzes. Oracle: {@link #check}.
 */
class SafetensorsIndexFuzzTest {
  private static final Limits LIMITS = Limits.defaults();

  /** The only constraints the reader may refuse with. */
  static final Set<Constraint> READER =
      EnumSet.of(Constraint.FILE_FORMAT_REJECTED, Constraint.NESTING_LIMIT, Constraint.HEADER_CEILING);

  @FuzzTest(maxDuration = "10m")
  void readIndex(byte[] input) {
    check(input);
  }

  /**
   * An index read is self-consistent (members are the distinct files of the weight map, each a
   * plain file name; the map is not empty), or the refusal is typed, one of the reader's
   * constraints, with a bounded message and an offset inside the input. Nothing else escapes.
   */
  static void check(byte[] input) {
    try {
      SafetensorsIndex ix = SafetensorsIndexReader.read(input, LIMITS);
      require(ix.names().size() > 0, "an empty weight map was accepted");
      SafetensorsIndex exact = readExact(input);
      require(exact.names().size() == ix.names().size() && exact.members().equals(ix.members()),
          "the read with names kept differs from the read without");
      WeightMap map = java.util.Objects.requireNonNull(exact.weightMap(), "names kept");
      java.util.Set<String> files = new java.util.HashSet<>();
      java.util.Map<String, java.util.List<String>> byFile = new java.util.HashMap<>();
      for (int e = 0; e < map.size(); e++) {
        files.add(map.fileOf(e));
        byFile.computeIfAbsent(map.fileOf(e), f -> new java.util.ArrayList<>()).add(map.name(e));
        require(map.find(map.name(e)) == e, "an entry is not found by its name");
      }
      require(ix.members().size() == files.size() && files.containsAll(ix.members()),
          "members are not the distinct files of the weight map");
      for (java.util.Map.Entry<String, java.util.List<String>> f : byFile.entrySet()) {
        require(ix.names().matches(f.getKey(), f.getValue()),
            "a file's names do not match their digest");
      }
      for (String m : ix.members()) {
        require(SafetensorsIndexReader.badMemberName(m) == null, "a member leaves the directory");
      }
      require(ix.totalSize() == null || ix.totalSize() >= 0, "negative total_size");
    } catch (ReaException e) {
      FuzzOracle.checkTyped(e);
      require(READER.contains(e.constraint()), "unexpected constraint " + e.constraint());
      require(e.offset() == null || (e.offset() >= 0 && e.offset() <= input.length),
          "offset " + e.offset() + " outside the input of " + input.length + " bytes");
    }
  }

  private static SafetensorsIndex readExact(byte[] input) throws ReaException {
    try {
      return SafetensorsIndexReader.readExact(
          () -> new java.io.ByteArrayInputStream(input), LIMITS, null);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static void require(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }
}
