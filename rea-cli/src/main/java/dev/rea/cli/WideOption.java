package dev.rea.cli;

/**
 * {@code --wide}: readable output with lines as long as their content, as a pipe or a file gets
 * it, instead of laid out to the terminal's width ({@link Screen}).
 */
final class WideOption {
  /** The option's name. */
  static final String NAME = "--wide";

  /** Its help text. */
  static final String DESCRIPTION =
      "On a terminal, print every column and whole lines, as a pipe or file gets them, instead"
          + " of fitting the terminal's width (COLUMNS, else the terminal's own).";

  private WideOption() {}
}
