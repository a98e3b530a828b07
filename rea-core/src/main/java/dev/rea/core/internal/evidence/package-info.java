/**
 * Building Evidence from a parsed header ({@link
 * dev.rea.core.internal.evidence.RecordAssembler}), its canonical JSON, identity, and the strict
 * reader of saved Evidence.
 */
@NullMarked
package dev.rea.core.internal.evidence;

import org.jspecify.annotations.NullMarked;
