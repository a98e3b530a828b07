package dev.rea.core.testing;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.format.gguf.GgufReader;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the standard readers through {@link ModelInspector} over an in-memory file and keeps the
 * inspection's {@link RetainedBudget}, so a test can compare what was charged with the JSON the
 * record becomes: the signed bundle ({@link EvidenceJson#bundleBytes}) and the canonical form.
 */
public final class BudgetedInspection {
  private BudgetedInspection() {}

  /**
   * One inspection's outcome.
   *
   * @param record the signed record
   * @param bundle the signed bundle's JSON, as {@code --json} prints it
   * @param canonical the RFC 8785 bytes the evidence ID and signature cover
   * @param used bytes charged to the budget
   * @param limit the budget
   */
  public record Outcome(
      EvidenceRecord record, byte[] bundle, byte[] canonical, long used, long limit) {}

  /**
   * Inspects {@code file} (served at {@code path}) with {@code limits}, signs the record with
   * {@code signer} and returns it with the budget's final state.
   *
   * @throws ReaException as {@link ModelInspector#inspect} does; a failure that carries partial
   *     Evidence fails the test ({@link AssertionError}): the refusals these tests make come
   *     before anything is validated
   */
  public static Outcome inspect(byte[] file, Path path, Limits limits, EvidenceSigner signer)
      throws ReaException {
    AtomicReference<RetainedBudget> budget = new AtomicReference<>();
    Map<DetectedFormat, FormatReader> readers = new EnumMap<>(DetectedFormat.class);
    readers.put(DetectedFormat.GGUF, capturing(new GgufReader(), budget));
    readers.put(DetectedFormat.SAFETENSORS, capturing(new SafetensorsReader(), budget));
    ModelInspector inspector =
        new ModelInspector(limits, new MemoryFileAccess(file), Clock.systemUTC(), readers);
    Inspection result =
        inspector.run(path, HashMode.FULL, new ModelInspector.Listener() {}, Cancellation.none());
    if (result.partialEvidence().isPresent()) {
      throw new AssertionError("a refusal carried partial Evidence", result.failure().orElse(null));
    }
    EvidenceRecord record = result.orThrow();
    EvidenceRecord signed = signer.sign(record);
    return new Outcome(
        signed,
        EvidenceJson.bundleBytes(List.of(signed)),
        EvidenceIds.canonicalBytes(signed),
        budget.get().used(),
        budget.get().limit());
  }

  private static FormatReader capturing(FormatReader reader, AtomicReference<RetainedBudget> out) {
    return (in, ctx) -> {
      out.set(ctx.budget());
      return reader.read(in, ctx);
    };
  }
}
