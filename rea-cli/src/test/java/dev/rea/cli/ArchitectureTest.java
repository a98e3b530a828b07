package dev.rea.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of issue 17, checked on the compiled main classes of rea-core, rea-mcp
 * and rea-cli (tests and test jars left out): no package cycle anywhere; the core library
 * imports neither front end; the front ends reach the core only through its public API, never
 * {@code dev.rea.core.internal}.
 */
class ArchitectureTest {
  private static JavaClasses main;

  /** Main classes only: not target/test-classes, not a module's -tests.jar. */
  private static final ImportOption MAIN_ONLY =
      (Location location) ->
          !location.contains("/test-classes/") && !location.contains("-tests.jar");

  @BeforeAll
  static void importClasses() {
    main = new ClassFileImporter().withImportOption(MAIN_ONLY).importPackages("dev.rea");
  }

  @Test
  void theImportFoundEveryModule() {
    org.assertj.core.api.Assertions.assertThat(main.contain(dev.rea.core.Rea.class)).isTrue();
    org.assertj.core.api.Assertions.assertThat(main.contain(ReaMain.class)).isTrue();
    org.assertj.core.api.Assertions.assertThat(
            main.stream().anyMatch(c -> c.getPackageName().equals("dev.rea.mcp")))
        .isTrue();
    org.assertj.core.api.Assertions.assertThat(
            main.stream().anyMatch(c -> c.getPackageName().startsWith("dev.rea.core.internal.")))
        .isTrue();
  }

  @Test
  void noPackageCycles() {
    slices().matching("dev.rea.(**)").should().beFreeOfCycles().check(main);
  }

  @Test
  void theCoreImportsNeitherFrontEnd() {
    noClasses()
        .that()
        .resideInAPackage("dev.rea.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.rea.cli..", "dev.rea.mcp..")
        .check(main);
  }

  @Test
  void theFrontEndsUseOnlyThePublicApi() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.rea.cli..", "dev.rea.mcp..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.rea.core.internal..")
        .check(main);
  }
}
