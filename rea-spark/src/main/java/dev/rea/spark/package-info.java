/**
 * {@link dev.rea.spark.ScanJob}: REA's header inspection as a Spark job over Hadoop file
 * systems (CONTRACT section 10).
 */
@NullMarked
package dev.rea.spark;

import org.jspecify.annotations.NullMarked;
