package dev.rea.spark;

import org.apache.spark.sql.SparkSession;

/** The local Spark session of a test class: two worker threads, no UI, loopback only. */
final class LocalSpark {
  private LocalSpark() {}

  static SparkSession start(String name) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(name)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate();
  }
}
