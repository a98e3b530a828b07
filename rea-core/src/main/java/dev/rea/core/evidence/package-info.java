/**
 * Evidence records of model files and model sets, and the values they hold (CONTRACT sections 3
 * and 9); what an inspection returns ({@link dev.rea.core.evidence.Inspection}).
 */
@NullMarked
package dev.rea.core.evidence;

import org.jspecify.annotations.NullMarked;
