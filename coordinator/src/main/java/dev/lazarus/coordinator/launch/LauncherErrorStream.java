package dev.lazarus.coordinator.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the launcher's standard error while the job runs: the ranks' lines go on to the user's terminal at once, the
 * rank JVMs' start-up notice ({@link RankJvmNotice}) is dropped, and with mpirun Open MPI's own text
 * ({@link OpenMpiText}) goes to a launcher log instead, a 0600 file made when the first such line arrives.
 * When the launch ends, {@link #summary} says in one line what that text meant and where it is.
 */
final class LauncherErrorStream {
    /** Open MPI's text kept whole in the log, and in memory for the summary; more is counted, not kept. */
    static final int MAX_LINES = 10_000;

    /** How long {@link #summary} waits for the stream's end after the launcher exited (its orphans hold it open). */
    static final Duration DRAIN = Duration.ofSeconds(5);

    private final PrintStream err;
    private final Path logDirectory;
    /** Whether the launcher is Open MPI's mpirun, whose own text is diverted; MPJ's lines all go to the terminal. */
    private final boolean openMpi;
    private final OpenMpiText text = new OpenMpiText();
    private final List<String> diverted = new ArrayList<>();
    private final Thread pump;
    private Path log;
    private Writer logWriter;
    private int dropped;
    private String logProblem;

    private LauncherErrorStream(InputStream launcherErr, PrintStream err, Path logDirectory, boolean openMpi) {
        this.err = err;
        this.openMpi = openMpi;
        this.logDirectory = logDirectory;
        this.pump = Thread.ofPlatform().daemon().name("lazarus-launcher-stderr").start(() -> pump(launcherErr));
    }

    /**
     * @param launcherErr  the launcher's standard error
     * @param err          where the ranks' lines go
     * @param logDirectory where the launcher log is made, if Open MPI prints anything
     * @param openMpi      whether the launcher is mpirun (else MPJ's, whose lines are only cleared of the rank JVMs'
     *                     {@link RankJvmNotice})
     */
    static LauncherErrorStream start(InputStream launcherErr, PrintStream err, Path logDirectory, boolean openMpi) {
        return new LauncherErrorStream(launcherErr, err, logDirectory, openMpi);
    }

    private void pump(InputStream launcherErr) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(launcherErr, StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (RankJvmNotice.is(line)) {
                    continue;
                }
                if (openMpi && text.isOpenMpis(line)) {
                    divert(line);
                } else {
                    err.println(line);
                }
            }
        } catch (IOException e) {
            // The launcher and every process holding the pipe are gone; whatever was read is accounted for.
        } finally {
            closeLog();
        }
    }

    private synchronized void divert(String line) {
        if (diverted.size() >= MAX_LINES) {
            dropped++;
            return;
        }
        diverted.add(line);
        if (logProblem != null) {
            return;
        }
        try {
            if (logWriter == null) {
                log = Files.createTempFile(logDirectory, "lazarus-openmpi-", ".log",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                logWriter = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
            }
            logWriter.write(line);
            logWriter.write('\n');
            logWriter.flush();   // the summary may be read while orphans still hold the stream open
        } catch (IOException e) {
            // The ranks' lines must keep flowing whatever happens to the log: a full pipe would stall the job.
            logProblem = String.valueOf(e.getMessage());
        }
    }

    private synchronized void closeLog() {
        if (logWriter != null) {
            try {
                if (dropped > 0) {
                    logWriter.write("(lazarus: " + dropped + " more lines were not kept)\n");
                }
                logWriter.close();
            } catch (IOException e) {
                logProblem = String.valueOf(e.getMessage());
            }
        }
    }

    /**
     * Waits (at most {@link #DRAIN}) for the stream to end, then sums up Open MPI's text.
     *
     * @return "MEANING (Open MPI's text: LOG)", or empty when Open MPI printed nothing
     */
    Optional<String> summary() throws InterruptedException {
        pump.join(DRAIN);
        synchronized (this) {
            if (diverted.isEmpty()) {
                return Optional.empty();
            }
            String where = logProblem == null ? "Open MPI's text: " + log
                    : "Open MPI's text could not be kept in " + logDirectory + ": " + logProblem;
            return Optional.of(OpenMpiText.summary(List.copyOf(diverted)) + " (" + where + ")");
        }
    }
}
