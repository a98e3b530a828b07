package dev.rea.cli.scan;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Warning;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Told of each unit once its line is written: what the line says, with every warning of the
 * unit's Evidence (a line's summary keeps only as many as fit its budget). Feeds outputs made
 * of the whole scan, such as {@code --format sarif} ({@link SarifCollector}). Called from the
 * worker threads, so implementations must be thread-safe; a line kept by {@code --resume} is
 * not inspected again and is not reported.
 */
@FunctionalInterface
public interface UnitListener {
  /** Listens to nothing. */
  UnitListener NONE = (path, status, warnings, error) -> {};

  /**
   * @param path the unit's path, as its line names it
   * @param status its status
   * @param warnings every warning of its Evidence (complete or partial), in order; empty when
   *     there is no Evidence
   * @param error the failure as its line reports it (with the command line's advice), or null
   */
  void finished(String path, UnitStatus status, List<Warning> warnings, @Nullable ReaException error);
}
