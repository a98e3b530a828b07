/**
 * JMH benchmarks of header inspection, full hashing and view paging over the synthetic files
 * {@link dev.rea.bench.BenchFiles} names (docs/performance.md).
 */
@NullMarked
package dev.rea.bench;

import org.jspecify.annotations.NullMarked;
