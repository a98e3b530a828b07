package dev.rea.cli;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.view.Glob;
import dev.rea.core.view.ViewCollection;
import dev.rea.core.view.ViewRequest;
import org.jspecify.annotations.Nullable;

/**
 * {@code --tensors GLOB}: a shell-style pattern the whole tensor name must match (CONTRACT
 * section 12; the syntax of {@link Glob}). On {@code inspect-model-artifact} it filters the
 * readable report's tensor table; on {@code inspect-analysis-view} it is the view's {@code
 * name_glob}.
 */
final class TensorsOption {
  /** The option's name. */
  static final String NAME = "--tensors";

  /** Its help text, shared by both commands. */
  static final String SYNTAX =
      "GLOB is matched against the whole name: * any run, ? one character, [a-z] [!0-9] one of"
          + " (or not of) a class, \\ escapes; quote it for the shell, e.g. 'blk.0.*'.";

  private TensorsOption() {}

  /**
   * Compiles the option's pattern.
   *
   * @param text the pattern given
   * @return the pattern
   * @throws ReaException {@code bad_argument} naming {@code --tensors}, with the 0-based
   *     code-point {@code position} of the problem
   */
  static Glob compile(String text) throws ReaException {
    try {
      return Glob.compile(text);
    } catch (Glob.SyntaxError e) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              NAME
                  + " '"
                  + TerminalText.printable(ReaException.truncateForMessage(text))
                  + "' does not parse: "
                  + e.reason()
                  + " (at character "
                  + e.position()
                  + ", counting from 0)")
          .field(NAME)
          .diagnostic("position", e.position())
          .build();
    }
  }

  /**
   * The filter of the readable report's tensor table ({@code inspect-model-artifact}, {@code
   * inspect-model-set}). The readable report is the only output the option filters.
   *
   * @param text the option's pattern, or null when not given
   * @param format the command's {@code --format}
   * @return the pattern, or null when not given
   * @throws ReaException {@code conflicting_choices} with {@code --json}, {@code --detail
   *     summary} or a standard {@code --format}, saying how to select tensors there instead;
   *     {@code bad_argument} as {@link #compile}
   */
  static @Nullable Glob forReport(
      @Nullable String text, boolean json, Arguments.Detail detail, StandardFormat format)
      throws ReaException {
    if (text == null) {
      return null;
    }
    String replacedBy =
        json
            ? "--json"
            : detail == Arguments.Detail.SUMMARY
                ? "--detail summary"
                : format != StandardFormat.REA ? "--format " + format.wire : null;
    if (replacedBy != null) {
      throw ReaException.builder(
              Constraint.CONFLICTING_CHOICES,
              NAME
                  + " filters the tensor table of the readable report, which "
                  + replacedBy
                  + " replaces; to select tensors there, use --detail summary --evidence_output"
                  + " FILE --view '{\"collection\":\"tensors\",\"name_glob\":\"...\"}'")
          .field(NAME)
          .build();
    }
    return compile(text);
  }

  /**
   * The view {@code inspect-analysis-view} answers: {@code --view}, with {@code name_glob} set
   * from {@code --tensors} when it is given; without {@code --view}, the tensors whose name
   * matches.
   *
   * @param view the parsed {@code --view}, or null when not given
   * @param pattern the {@code --tensors} pattern, or null when not given
   * @throws ReaException {@code bad_argument} when neither is given or the view is of another
   *     collection; {@code conflicting_choices} when the view has its own {@code name_glob}
   */
  static ViewRequest view(@Nullable ViewRequest view, @Nullable String pattern)
      throws ReaException {
    if (pattern == null) {
      if (view == null) {
        throw ReaException.builder(
                Constraint.BAD_ARGUMENT,
                "give --view JSON (a view object) or --tensors GLOB (the tensors whose name"
                    + " matches)")
            .field("--view")
            .build();
      }
      return view;
    }
    compile(pattern);
    if (view == null) {
      return ViewRequest.all(ViewCollection.TENSORS).withNameGlob(pattern).validate();
    }
    if (view.collection() != ViewCollection.TENSORS) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              NAME
                  + " selects tensors, and the view pages "
                  + view.collection().wire()
                  + " (use key_glob in the view for metadata keys)")
          .field(NAME)
          .build();
    }
    if (view.nameGlob() != null) {
      throw ReaException.builder(
              Constraint.CONFLICTING_CHOICES,
              NAME + " and the view's name_glob are two patterns for one filter: give one")
          .field(NAME)
          .build();
    }
    return view.withNameGlob(pattern).validate();
  }
}
