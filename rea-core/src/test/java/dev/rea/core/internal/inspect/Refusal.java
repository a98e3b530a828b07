package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCategory;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A failed inspection seen as these tests look at it: the failure's fields and the partial
 * Evidence beside it ({@link Inspection.Failed}).
 */
record Refusal(ReaException error, @Nullable EvidenceRecord partialEvidence) {
  /** Runs the inspection, which must fail. */
  static Refusal of(ModelInspector inspector, Path path, HashMode mode) {
    return of(inspector, path, mode, new ModelInspector.Listener() {}, Cancellation.none());
  }

  /** Runs the inspection with a listener and cancellation; it must fail. */
  static Refusal of(
      ModelInspector inspector,
      Path path,
      HashMode mode,
      ModelInspector.Listener listener,
      Cancellation cancellation) {
    Inspection r = inspector.run(path, mode, listener, cancellation);
    assertThat(r).as("inspection of %s must fail", path).isInstanceOf(Inspection.Failed.class);
    Inspection.Failed f = (Inspection.Failed) r;
    return new Refusal(f.error(), f.partial());
  }

  Constraint constraint() {
    return error.constraint();
  }

  ErrorCode code() {
    return error.code();
  }

  ErrorCategory category() {
    return error.category();
  }

  @Nullable String path() {
    return error.path();
  }

  @Nullable Long offset() {
    return error.offset();
  }

  @Nullable String field() {
    return error.field();
  }

  Map<String, Object> diagnostics() {
    return error.diagnostics();
  }

  String getMessage() {
    return error.getMessage();
  }

  @Nullable Throwable getCause() {
    return error.getCause();
  }
}
