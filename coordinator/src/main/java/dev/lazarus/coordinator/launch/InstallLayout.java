package dev.lazarus.coordinator.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where a built Lazarus tree keeps what ranks run: each launchable module's jar in {@code target/} and its run-time
 * dependencies in {@code target/lib/} (copied there at {@code package}).
 */
public final class InstallLayout {
    private final Path home;

    /** @param home the Lazarus checkout (the directory holding {@code ./lazarus}) */
    public InstallLayout(Path home) {
        this.home = home.toAbsolutePath().normalize();
    }

    public Path home() {
        return home;
    }

    /** The module directory of a backend. */
    public Path backendModule(Backend backend) {
        return home.resolve("mpi-runtime").resolve(backend.id());
    }

    /** The module directory of recovery (the crash-test campaigns run from it). */
    public Path recoveryModule() {
        return home.resolve("recovery");
    }

    /** The module directory of the node daemon (its process runs on the module's own class path). */
    public Path nodeDaemonModule() {
        return home.resolve("node-daemon");
    }

    /** The module directory of the bundled applications (the NPB kernels). */
    public Path applicationsModule() {
        return home.resolve("examples").resolve("npb-java");
    }

    /**
     * The jars of a module: its own jar plus {@code target/lib/*.jar}.
     *
     * @throws IllegalStateException when the module has not been built, naming the fix
     */
    public List<Path> moduleClasspath(Path module) {
        Path target = module.resolve("target");
        List<Path> jars = new ArrayList<>();
        try (Stream<Path> own = listJars(target)) {
            own.filter(p -> !p.getFileName().toString().endsWith("-tests.jar")).forEach(jars::add);
        }
        if (jars.isEmpty()) {
            throw new IllegalStateException("module " + home.relativize(module) + " is not built: no jar in "
                    + target + " (run ./mvnw -B package -DskipTests)");
        }
        try (Stream<Path> libs = listJars(target.resolve("lib"))) {
            libs.forEach(jars::add);
        }
        return jars;
    }

    /** Joins class path lists, keeping the first jar of each file name so no class is on the path twice. */
    public static List<Path> union(List<List<Path>> parts) {
        Map<String, Path> byName = new LinkedHashMap<>();
        for (List<Path> part : parts) {
            for (Path jar : part) {
                byName.putIfAbsent(entryName(jar), jar);
            }
        }
        return List.copyOf(byName.values());
    }

    /**
     * What identifies a class path entry across modules: a jar's file name (the same artifact and version wherever
     * it was copied), a directory's whole path.
     */
    static String entryName(Path entry) {
        return Files.isDirectory(entry) ? entry.toString() : entry.getFileName().toString();
    }

    /** {@code entries} as a {@code -cp} argument. */
    public static String classPath(List<Path> entries) {
        return entries.stream().map(Path::toString).collect(Collectors.joining(":"));
    }

    private static Stream<Path> listJars(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Stream.empty();
        }
        try {
            return Files.list(dir).filter(p -> p.getFileName().toString().endsWith(".jar")).sorted();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }
}
