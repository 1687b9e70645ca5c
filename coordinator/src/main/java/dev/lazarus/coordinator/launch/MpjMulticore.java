package dev.lazarus.coordinator.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The JVM that runs MPJ Express 0.44's multicore device: every rank is a thread of it, and MPJ gives each rank
 * thread a class loader of its own over the rank class path, whose parent is the JVM's system class loader.
 *
 * <p>The launcher starts that JVM itself, as MPJ's {@code starter.jar} would (through a second JVM, its daemon),
 * so that it chooses the system class path: the runtime's and the bundled applications' jars go there and their
 * classes are loaded once for all rank threads (none of them keeps per-rank state in a static field), while the
 * user's {@code --classpath} and the MPJ backend (which holds MPJ's per-rank {@code mpi.MPI}) stay on the rank class
 * path, loaded per rank as MPJ Express does. With a loader per rank for everything, every rank compiled its own copy
 * of every hot loop, twice the JIT's work on MPJ's one JVM, and the ranks waited in interpreted code and after
 * deoptimizations for it (IS class A on 2 ranks of 2 cores: the first two timed iterations took 19-36 ms against 7
 * in steady state).
 */
final class MpjMulticore {
    /** The class of MPJ's starter that runs the ranks as threads. */
    static final String MAIN_CLASS = "runtime.starter.MulticoreStarter";
    /** What MPJ's starter puts on the class path of the ranks' JVM, from {@code $MPJ_HOME/lib}. */
    static final List<String> STARTER_JARS = List.of("smpdev.jar", "xdev.jar", "mpjbuf.jar", "loader2.jar",
            "starter.jar", "mpiExp.jar");
    /** What {@link #MAIN_CLASS} adds to every rank's class loader, from {@code $MPJ_HOME/lib}. */
    static final List<String> RANK_JARS = List.of("mpi.jar", "mpjdev.jar");

    private MpjMulticore() {
    }

    /**
     * The two class paths of an MPJ job.
     *
     * @param shared  the ranks' JVM's system class path (after MPJ's starter jars): one copy of each class
     * @param perRank each rank thread's class loader's: its own copy of each class
     */
    record ClassPaths(List<Path> shared, List<Path> perRank) {
    }

    /**
     * Splits a job's class path: {@code bundled} (the runtime and the bundled applications) is shared, and the rest
     * of {@code classpath} (the user's entries and the backend's own jars) is per rank. A user's jar with the file
     * name of a bundled one is the same artifact and version, so the bundled copy serves.
     */
    static ClassPaths split(List<Path> classpath, List<Path> bundled) {
        Set<String> bundledNames = new HashSet<>();
        for (Path jar : bundled) {
            bundledNames.add(InstallLayout.entryName(jar));
        }
        List<Path> perRank = new ArrayList<>();
        for (Path entry : classpath) {
            if (!bundledNames.contains(InstallLayout.entryName(entry))) {
                perRank.add(entry);
            }
        }
        return new ClassPaths(List.copyOf(bundled), List.copyOf(perRank));
    }

    /**
     * Refuses an MPJ_HOME that lacks a jar the ranks' JVM needs.
     *
     * @throws IllegalArgumentException naming the missing jar
     */
    static void checkInstalled(Path mpjHome) {
        for (String jar : jars()) {
            if (!Files.isRegularFile(mpjHome.resolve("lib").resolve(jar))) {
                throw new IllegalArgumentException("backend mpj is not installed: no lib/" + jar + " in MPJ_HOME="
                        + mpjHome + " (scripts/setup prepares it)");
            }
        }
    }

    /**
     * The command that runs {@code ranks} rank threads: {@code java}, the class paths, {@code jvmOptions}, then MPJ's
     * starter with its device and local class loading, and {@code main} (the rank main class, the application and
     * its arguments). {@code $MPJ_HOME} must be in the command's environment.
     *
     * <p>The starter's first argument is a directory it puts first on every rank's class path, for nothing else (MPJ's
     * {@code -wdir}, the working directory by default, where a stray class file would shadow the application's):
     * it gets MPJ's own {@code lib}, which holds jars and no class files.
     */
    static List<String> command(Path java, Path mpjHome, ClassPaths classPaths, List<String> jvmOptions, int ranks,
            List<String> main) {
        List<Path> system = new ArrayList<>();
        for (String jar : STARTER_JARS) {
            system.add(mpjHome.resolve("lib").resolve(jar));
        }
        system.addAll(classPaths.shared());
        List<String> command = new ArrayList<>(List.of(java.toString(), "-cp", InstallLayout.classPath(system)));
        command.addAll(jvmOptions);
        command.addAll(List.of(MAIN_CLASS, mpjHome.resolve("lib").toString(), Integer.toString(ranks), "smpdev",
                "useLocalLoader", InstallLayout.classPath(classPaths.perRank())));
        command.addAll(main);
        return command;
    }

    private static List<String> jars() {
        List<String> all = new ArrayList<>(STARTER_JARS);
        all.addAll(RANK_JARS);
        return all;
    }
}
