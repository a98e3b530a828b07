package dev.rea.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * picocli command models built through picocli's programmatic API, for the commands a start-up
 * pays for on every run ({@code rea} itself and {@code rea inspect-model-artifact}). picocli
 * builds an annotated command's model by reflection, and a starting JVM generates a proxy class
 * for each annotation type it reads: building the command line of {@code rea
 * inspect-model-artifact} took 55 to 71 ms in a fresh JVM with the start-up archive, 31 to 45 ms
 * with the models built here (docs/performance.md). The other commands keep their annotations.
 *
 * <p>The help texts are the ones the annotations gave ({@code CliUsabilityTest} checks the
 * synopsis, the option rows and their order), and the standard help options below carry
 * picocli's own wording for {@code mixinStandardHelpOptions}.
 */
final class CommandModels {
  private CommandModels() {}

  /**
   * A command model whose user object is {@code command} (picocli calls it to execute), with
   * automatic usage width, options in declaration order and no annotation read.
   *
   * @param name the command's name
   * @param command the object picocli calls
   * @return the model; add options, then the standard help options with {@link #finish}
   */
  static CommandSpec command(String name, Callable<Integer> command) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name(name);
    spec.usageMessage().autoWidth(true).sortOptions(false);
    return spec;
  }

  /**
   * Adds {@code -h, --help} and {@code -V, --version} last, as {@code mixinStandardHelpOptions}
   * does, and the version provider.
   *
   * @return {@code spec}
   */
  static CommandSpec finish(CommandSpec spec) {
    spec.addOption(
        OptionSpec.builder("-h", "--help")
            .usageHelp(true)
            .description("Show this help message and exit.")
            .build());
    spec.addOption(
        OptionSpec.builder("-V", "--version")
            .versionHelp(true)
            .description("Print version information and exit.")
            .build());
    spec.versionProvider(new ReaMain.Version());
    return spec;
  }
}
