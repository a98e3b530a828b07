package dev.rea.spark;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.Test;

/**
 * What the module may depend on and how its JVMs start: its main classes reach REA only through
 * rea-core's public API (CONTRACT section 14), without package cycles; the tests run with every
 * JVM option Spark's own launcher gives on Java 17+ (the pom's {@code spark.java.options}, which
 * scripts/spark-scan uses too), so an upgrade of Spark that adds one fails here.
 */
class SparkModuleTest {
  private static final ImportOption MAIN_ONLY =
      (Location location) ->
          !location.contains("/test-classes/") && !location.contains("-tests.jar");

  @Test
  void theJobUsesOnlyReasPublicApi() {
    JavaClasses spark =
        new ClassFileImporter().withImportOption(MAIN_ONLY).importPackages("dev.rea.spark");
    assertThat(spark.contain(ScanJob.class)).isTrue();
    assertThat(spark.contain(dev.rea.spark.hadoop.HadoopSource.class)).isTrue();
    noClasses()
        .that()
        .resideInAPackage("dev.rea.spark..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.rea.core.internal..")
        .check(spark);
    slices().matching("dev.rea.(**)").should().beFreeOfCycles().check(spark);
  }

  @Test
  void theTestJvmHasEveryOptionSparksLauncherGives() {
    List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments();
    assertThat(JavaModuleOptions.defaultModuleOptionArray()).isNotEmpty();
    assertThat(jvm).contains(JavaModuleOptions.defaultModuleOptionArray());
  }
}
