package dev.rea.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Signals a test process may have inherited as ignored. A shell that starts a command as a
 * background job without job control (a CI script's {@code cmd &}, {@code nohup}) sets SIGINT to
 * ignored; the disposition survives {@code exec}, and the JVM then installs no handler for it
 * (its {@code JVM_RegisterSignal} leaves an ignored SIGINT ignored), so a test that sends SIGINT
 * would see the process carry on. Tests of REA's SIGINT handling start their child through
 * {@link #defaultSigint()} and skip when SIGINT is still ignored.
 */
final class InheritedSignals {
  static final int SIGINT = 2;

  private InheritedSignals() {}

  /**
   * @return a command prefix that restores SIGINT's default action before running the rest of
   *     the command line (perl, when present: a shell cannot reset a signal ignored on entry), or
   *     an empty list
   */
  static List<String> defaultSigint() {
    if (Files.isExecutable(Path.of("/usr/bin/perl"))) {
      return List.of("/usr/bin/perl", "-e", "$SIG{INT}='DEFAULT'; exec @ARGV or die $!");
    }
    return List.of();
  }

  /**
   * @param pid a process id ({@code ProcessHandle.current().pid()} for this JVM)
   * @param signal the signal number
   * @return whether the process ignores the signal, by the {@code SigIgn} mask of {@code
   *     /proc/PID/status}; false where there is no such file
   * @throws IOException when the file exists but cannot be read
   */
  static boolean ignored(long pid, int signal) throws IOException {
    Path status = Path.of("/proc", Long.toString(pid), "status");
    if (!Files.isReadable(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        long mask = Long.parseUnsignedLong(line.substring(7).trim(), 16);
        return (mask & (1L << (signal - 1))) != 0;
      }
    }
    return false;
  }
}
