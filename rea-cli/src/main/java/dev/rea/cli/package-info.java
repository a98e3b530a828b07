/**
 * The {@code rea} command line (picocli) over the core library's front door {@code
 * dev.rea.core.Rea}: commands, readable reports and exit statuses (CONTRACT sections 1 and 6).
 */
@NullMarked
package dev.rea.cli;

import org.jspecify.annotations.NullMarked;
