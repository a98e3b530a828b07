package dev.rea.cli.scan;

import dev.rea.core.Rea;
import dev.rea.core.Verdict;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Warning;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Collects the findings of a scan for {@code rea scan --format sarif} (CONTRACT section 13): per
 * unit that was partial, rejected or failed, or carries a warning, one {@link Verdict} whose
 * reasons are the failure (a SARIF result at level {@code error}, with the error's byte offset)
 * and each warning (level {@code warning}). Complete units without warnings and skipped files
 * add nothing, so memory grows with the findings, not with the tree. Thread-safe.
 */
public final class SarifCollector implements UnitListener {
  private final List<Verdict> verdicts = new ArrayList<>();

  @Override
  public void finished(
      String path, UnitStatus status, List<Warning> warnings, @Nullable ReaException error) {
    if (status == UnitStatus.SKIPPED) {
      return;
    }
    List<Verdict.Reason> reasons = new ArrayList<>(warnings.size() + 1);
    if (error != null) {
      reasons.add(
          new Verdict.Reason(
              Verdict.Kind.REJECTION,
              error.constraint().wireName(),
              String.valueOf(error.getMessage()),
              error.offset(),
              error.field()));
    }
    for (Warning w : warnings) {
      reasons.add(new Verdict.Reason(Verdict.Kind.WARNING, w.code(), w.message(), null, null));
    }
    if (reasons.isEmpty()) {
      return;
    }
    // A name that cannot be decoded reads as U+FFFD, like its look-alikes: the error's file: URI
    // keeps its bytes, so the result names that file and no other (Rea#sarifLog).
    Object uri = error == null ? null : error.diagnostics().get("uri");
    String named =
        uri instanceof String u && path.indexOf('\uFFFD') >= 0 && u.startsWith("file:")
            ? u
            : Path.of(path).toAbsolutePath().toString();
    Verdict v = new Verdict(named, false, null, reasons);
    synchronized (verdicts) {
      verdicts.add(v);
    }
  }

  /**
   * The SARIF 2.1.0 log of what was collected, results ordered by path (workers finish in any
   * order; the log should not).
   *
   * @param base the directory files are named relative to ({@code %SRCROOT%})
   * @return the log, UTF-8 JSON
   */
  public byte[] log(Path base) {
    List<Verdict> sorted;
    synchronized (verdicts) {
      sorted = new ArrayList<>(verdicts);
    }
    sorted.sort(Comparator.comparing(Verdict::path));
    return Rea.sarifLog(base, sorted);
  }
}
