/**
 * Answering views: indexed Evidence, selections, pages and summaries, and the retained
 * Evidence store.
 */
@NullMarked
package dev.rea.core.internal.view;

import org.jspecify.annotations.NullMarked;
