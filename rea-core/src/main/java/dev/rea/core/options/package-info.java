/**
 * What an inspection is asked to do: {@link dev.rea.core.options.InspectOptions}, hash mode,
 * limits, cancellation and progress.
 */
@NullMarked
package dev.rea.core.options;

import org.jspecify.annotations.NullMarked;
