package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.rea.core.options.Cancellation;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import sun.misc.Signal;

/**
 * A SIGINT that arrives after {@code main} started but before the inspection installed its
 * handlers is kept, and cancels the inspection as soon as it installs them (so {@code --json}
 * can still print its error object). The signal is raised in this JVM, whose handler is then
 * REA's: it never reaches the JVM's own (which would end the test run).
 */
class InterruptsTest {
  @Test
  void aSignalBeforeTheHandlersCancelsOnceTheyAreInstalled() throws Exception {
    assumeThat(InheritedSignals.ignored(ProcessHandle.current().pid(), InheritedSignals.SIGINT))
        .as("SIGINT was ignored when this JVM started: the JVM installs no handler for it")
        .isFalse();
    Interrupts.early();
    Signal.raise(new Signal("INT"));
    // Signals are handled on the JVM's signal dispatcher thread: wait until it has run.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Interrupts.pendingEarly() == null && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(Interrupts.pendingEarly()).isEqualTo("INT");
    Cancellation cancellation = new Cancellation();
    try (Interrupts installed = Interrupts.install(cancellation)) {
      assertThat(cancellation.isCancelled()).as("the early SIGINT cancels").isTrue();
      assertThat(installed.exitStatus(130)).isEqualTo(130);
    }
    // Nothing kept now: a new inspection is not cancelled.
    Cancellation fresh = new Cancellation();
    try (Interrupts none = Interrupts.install(fresh)) {
      assertThat(fresh.isCancelled()).isFalse();
    }
  }

  /**
   * A run that does not stop after the first signal (a read the system does not interrupt) ends
   * the process after the grace period, with the signal's status; a run that stops in time does
   * not.
   */
  @Test
  void aRunThatDoesNotStopIsEndedAfterTheGracePeriod() throws Exception {
    java.util.concurrent.CompletableFuture<Integer> exited =
        new java.util.concurrent.CompletableFuture<>();
    Cancellation stuck = new Cancellation();
    try (Interrupts installed = Interrupts.install(stuck, 50, exited::complete)) {
      installed.signalled("terminated (SIGTERM)", true);
      assertThat(stuck.isCancelled()).isTrue();
      assertThat(exited.get(10, TimeUnit.SECONDS)).isEqualTo(143);
    }

    java.util.concurrent.CompletableFuture<Integer> notExited =
        new java.util.concurrent.CompletableFuture<>();
    Cancellation stopped = new Cancellation();
    try (Interrupts installed = Interrupts.install(stopped, 200, notExited::complete)) {
      installed.signalled("interrupted (SIGINT)", false);
    }
    Thread.sleep(600);
    assertThat(notExited).as("closed within the grace period: no exit").isNotDone();
  }
}
