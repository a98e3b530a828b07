package dev.rea.core.text;

import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;

/**
 * The reason a Jackson parser gives for rejecting JSON, fit for REA's messages: Jackson's own
 * wording ({@link JacksonException#getOriginalMessage()}, which leaves out the location Jackson
 * appends), without the location descriptions Jackson still puts inside the wording. REA reports
 * offsets itself, and with {@code StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION} disabled those
 * descriptions read, for an unclosed object or array (jackson-core 3.1.8), {@code (start marker
 * at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); byte offset:
 * #UNKNOWN])}.
 */
public final class JacksonReasons {
  /** {@code " (start marker at [...])"}: where Jackson saw the unclosed object or array begin. */
  private static final Pattern START_MARKER = Pattern.compile("\\s*\\(start marker at \\[[^\\]]*\\]\\)");

  /** Any other {@code [Source: ...]} location description. */
  private static final Pattern SOURCE = Pattern.compile("\\s*\\[Source: [^\\]]*\\]");

  /**
   * Jackson's wording when a property name passes {@code maxNameLength} (jackson-core 3: "Name
   * length (N) exceeds the maximum allowed (M, from ..."): M is group 1.
   */
  private static final Pattern NAME_TOO_LONG =
      Pattern.compile("^Name length \\(\\d+\\) exceeds the maximum allowed \\((\\d+)");

  /**
   * Where a constraint's limit comes from in Jackson's API ({@code ", from
   * `StreamReadConstraints.getMaxNestingDepth()`"}): a library detail, not the reader's limit.
   */
  private static final Pattern LIMIT_SOURCE = Pattern.compile(",\\s*from\\s*`[^`]*`");

  private JacksonReasons() {}

  /**
   * @return the name-length limit a parser refused a property name for ({@code
   *     StreamReadConstraints.getMaxNameLength()}, in characters), or -1 when {@code e} is any
   *     other failure
   */
  public static long nameLengthLimit(JacksonException e) {
    if (!(e instanceof tools.jackson.core.exc.StreamConstraintsException)
        || e.getOriginalMessage() == null) {
      return -1;
    }
    java.util.regex.Matcher m = NAME_TOO_LONG.matcher(e.getOriginalMessage());
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /**
   * @return Jackson's reason on one line, without its location descriptions or the API a
   *     limit comes from; the exception's class name when Jackson gives no reason
   */
  public static String of(JacksonException e) {
    String why = e.getOriginalMessage();
    if (why != null) {
      why = SOURCE.matcher(START_MARKER.matcher(why).replaceAll("")).replaceAll("");
      why = LIMIT_SOURCE.matcher(why).replaceAll("");
      why = why.replace('\n', ' ').strip();
    }
    return why == null || why.isEmpty() ? e.getClass().getSimpleName() : why;
  }
}
