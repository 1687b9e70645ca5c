package dev.lazarus.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** What the checkpoint tests look at in a level's job directory, and how they wipe a level. */
public final class JobFiles {

    private JobFiles() {
    }

    /** @return the newest version directory holding both ranks' manifests (a two-rank job), or -1 */
    public static long newestComplete(Path jobDirectory) throws IOException {
        if (!Files.isDirectory(jobDirectory)) {
            return -1;
        }
        try (Stream<Path> versions = Files.list(jobDirectory)) {
            return versions.filter(v -> Files.exists(v.resolve("rank-0.manifest"))
                            && Files.exists(v.resolve("rank-1.manifest")))
                    .mapToLong(v -> Long.parseLong(v.getFileName().toString().substring(1))).max().orElse(-1);
        }
    }

    /** Deletes {@code root} and everything below it, as a lost RAM disk or NVM device; a missing root is fine. */
    public static void wipe(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
