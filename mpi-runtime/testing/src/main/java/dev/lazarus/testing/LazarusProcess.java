package dev.lazarus.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code ./lazarus} script of this checkout as a child process, the way a user does, with building
 * switched off (the tests run inside a Maven build that has already packaged everything).
 */
public final class LazarusProcess {

    /** Exit status and combined output of one run. */
    public record Result(int exitStatus, String output) {
        /** Lines of the output that contain {@code text}. */
        public long count(String text) {
            return output.lines().filter(l -> l.contains(text)).count();
        }
    }

    private LazarusProcess() {
    }

    /** The checkout's root: system property {@code lazarus.home}, else the parent of the working directory. */
    public static Path home() {
        return Path.of(System.getProperty("lazarus.home", "../")).toAbsolutePath().normalize();
    }

    /** Runs {@code ./lazarus args} to completion; a run longer than {@code timeout} is killed and fails the test. */
    public static Result run(Duration timeout, String... args) throws IOException, InterruptedException {
        return run(null, timeout, args);
    }

    /**
     * {@link #run(Duration, String...)} from {@code directory} (null: this process's working directory), as a user
     * who runs {@code ./lazarus} from their own directory.
     */
    public static Result run(Path directory, Duration timeout, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(home().resolve("lazarus").toString()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile("lazarus-it-", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            builder.environment().put("LAZARUS_NO_BUILD", "1");
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                throw new AssertionError("lazarus " + String.join(" ", args) + " did not finish within " + timeout
                        + "; output:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
