package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.gguf.GgufReader;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cancellation that arrives while a safetensors header is parsed (its JSON is read whole, then
 * parsed with no further read, so no read can notice it) is honoured once the parse ends: the
 * inspection is cancelled with every validated row as partial Evidence, as during a full hash
 * (CONTRACT sections 1 and 7: SIGINT and notifications/cancelled cancel a running inspection).
 * The audit of this stop found such a cancel ignored: exit 0 and complete Evidence.
 */
class ParseCancellationTest {
  @TempDir Path dir;

  @Test
  void aCancelDuringTheParseCancelsWithTheValidatedRows() throws Exception {
    Path p = dir.resolve("m.safetensors");
    Files.write(p, SafetensorsBuilder.builder().tensor("a", "F32", 2, 3).tensor("b", "BF16", 4).build());
    for (HashMode mode : HashMode.values()) {
      Cancellation cancel = new Cancellation();
      Map<DetectedFormat, FormatReader> readers = new EnumMap<>(DetectedFormat.class);
      readers.put(DetectedFormat.GGUF, new GgufReader());
      SafetensorsReader real = new SafetensorsReader();
      // The real reader, with the cancel landing as its parse ends (after its last read).
      readers.put(
          DetectedFormat.SAFETENSORS,
          (in, ctx) -> {
            var parsed = real.read(in, ctx);
            cancel.cancel();
            return parsed;
          });
      ModelInspector inspector =
          new ModelInspector(Limits.defaults(), FileAccess.system(), Clock.systemUTC(), readers);
      Refusal e = Refusal.of(inspector, p, mode, new ModelInspector.Listener() {}, cancel);
      assertThat(e).as(mode.wire()).isNotNull();
      assertThat(e.constraint()).isEqualTo(Constraint.CANCELLED);
      EvidenceRecord partial = e.partialEvidence();
      assertThat(partial).isNotNull();
      assertThat(partial.status()).isEqualTo(EvidenceRecord.STATUS_PARTIAL);
      assertThat(partial.tensors()).extracting(TensorRow::name).containsExactly("a", "b");
      assertThat(partial.coverage().header()).isEqualTo(Coverage.COMPLETE);
      assertThat(partial.coverage().digest()).isEqualTo(Coverage.UNKNOWN);
      assertThat(partial.coverage().finalIdentity()).isEqualTo(Coverage.UNVERIFIED);
    }
  }
}
