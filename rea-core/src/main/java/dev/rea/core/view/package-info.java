/**
 * Analysis views over Evidence: the request ({@link dev.rea.core.view.ViewRequest}), name
 * patterns and the page answered (CONTRACT section 4).
 */
@NullMarked
package dev.rea.core.view;

import org.jspecify.annotations.NullMarked;
