/**
 * Hadoop file systems as REA sources: listing, positioned reads and set members.
 */
@NullMarked
package dev.rea.spark.hadoop;

import org.jspecify.annotations.NullMarked;
