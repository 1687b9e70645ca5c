package dev.lazarus.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layout rules of {@code docs/ARCHITECTURE.md}, checked on the compiled production classes of every module (this
 * module's test class path holds them all).
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.lazarus");
    }

    @Test
    void everyModuleIsImported() {
        for (String known : new String[] {"dev.lazarus.mpi.Comm", "dev.lazarus.checkpoint.Checkpoints",
                "dev.lazarus.easycrash.EasyCrash", "dev.lazarus.store.catalog.Catalog",
                "dev.lazarus.daemon.NodeDaemon", "dev.lazarus.recovery.campaign.Campaign",
                "dev.lazarus.recovery.policy.FixedOrderPolicy",
                "dev.lazarus.coordinator.cli.LazarusCli", "dev.lazarus.npb.cg.CgKernel"}) {
            if (!classes.contain(known)) {
                throw new AssertionError("the rules below would not see " + known);
            }
        }
    }

    /** Every package's dependencies form a tree: no two packages reach each other. */
    @Test
    void noPackageCycles() {
        slices().matching("dev.lazarus.(**)").should().beFreeOfCycles().check(classes);
    }

    /** The ranks reach the node daemon through its client API ({@code dev.lazarus.daemon}) only. */
    @Test
    void theRanksUseTheNodeDaemonsClientApiOnly() {
        noClasses().that().resideInAnyPackage("dev.lazarus.mpi..", "dev.lazarus.checkpoint..",
                        "dev.lazarus.easycrash..")
                .should().dependOnClassesThat().resideInAPackage("dev.lazarus.daemon.*..")
                .check(classes);
    }

    /** The store knows nothing of MPI, the daemon, recovery or the command line. */
    @Test
    void theStoreDependsOnNoOtherModule() {
        noClasses().that().resideInAPackage("dev.lazarus.store..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.lazarus.mpi..", "dev.lazarus.daemon..",
                        "dev.lazarus.checkpoint..", "dev.lazarus.easycrash..", "dev.lazarus.recovery..",
                        "dev.lazarus.coordinator..", "mpi..")
                .check(classes);
    }

    /**
     * The recovery decision is a pure function of facts: the policy package knows nothing of MPI, the ranks, the
     * daemon or the command line, only the store's L2 schemes.
     */
    @Test
    void theRecoveryPolicyDependsOnFactsOnly() {
        noClasses().that().resideInAPackage("dev.lazarus.recovery.policy..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.lazarus.mpi..", "dev.lazarus.daemon..",
                        "dev.lazarus.checkpoint..", "dev.lazarus.easycrash..", "dev.lazarus.coordinator..",
                        "dev.lazarus.recovery.campaign..", "mpi..")
                .check(classes);
    }
}
