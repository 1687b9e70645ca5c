package dev.lazarus.mpi.launch;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.spi.CommProvider;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The main class of every rank: {@code RankMain APP [APP ARGS]}. It initializes the backend on the class path, runs
 * the application and agrees on one exit status across ranks (the largest), so that a verification failure on any
 * rank fails the job. An unexpected exception aborts the whole job, because the other ranks would otherwise wait
 * forever in their next collective.
 */
public final class RankMain {
    /** Exit status for bad arguments, as the CLI uses. */
    public static final int USAGE = 2;
    /**
     * Exit status of a rank whose recovery attempt failed and was recorded ({@link RecoveryAttemptFailedException}):
     * the launcher relaunches the job once, and that launch rolls back.
     */
    public static final int RELAUNCH = 3;
    /**
     * Exit status of a job whose ranks stopped after a checkpoint because it was halted ({@link JobHaltedException}):
     * EX_TEMPFAIL, "try again later", which the same command does by resuming from that checkpoint.
     */
    public static final int HALTED = 75;

    private RankMain() {
    }

    public static void main(String[] args) {
        ParentWatch.start();
        CommProvider provider = CommProvider.load(rankClassLoader());
        CommProvider.Started started = provider.start(args);
        Comm comm = started.comm();
        recordStarted(comm.rank());
        int status = runApplication(comm, started.args());
        status = (int) comm.allreduce((long) status, ReduceOp.MAX);
        recordStatus(comm.rank(), status);
        provider.finish();
        provider.exit(status);
    }

    /**
     * Where this rank's backend and application are found: the thread's context class loader. Under MPJ multicore
     * the rank threads share this class (the launcher puts the runtime on the JVM's class path), while the backend
     * and the user's {@code --classpath} are on each rank thread's own loader, which MPJ sets as its context loader.
     * Elsewhere the context loader is the one that loaded this class.
     */
    static ClassLoader rankClassLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : RankMain.class.getClassLoader();
    }

    private static int runApplication(Comm comm, String[] args) {
        try {
            if (args.length == 0) {
                throw new IllegalArgumentException("usage: RankMain APP [APP ARGS]");
            }
            MpiApplication app = new ApplicationCatalog(rankClassLoader()).resolve(args[0]);
            return app.run(comm, Arrays.copyOfRange(args, 1, args.length));
        } catch (IllegalArgumentException e) {
            // Every rank parses the same arguments, so every rank gets here; rank 0 speaks for all.
            if (comm.rank() == 0) {
                System.err.println("lazarus: " + e.getMessage());
            }
            return USAGE;
        } catch (JobHaltedException e) {
            // Collective: every rank stopped after the same checkpoint, so the job ends normally with this status.
            if (comm.rank() == 0) {
                System.err.println("lazarus: " + e.getMessage());
            }
            return HALTED;
        } catch (RecoveryAttemptFailedException e) {
            // Expected enough to need no stack trace: the message names the failure and where it was thrown.
            System.err.println("lazarus: rank " + comm.rank() + ": " + e.getMessage());
            if (System.getenv().getOrDefault("LAZARUS_DEBUG", "0").equals("1")) {
                e.getCause().printStackTrace(System.err);
            }
            recordStatus(comm.rank(), RELAUNCH); // before the abort, which ends this process
            comm.abort(RELAUNCH);
            return RELAUNCH;
        } catch (Throwable e) {
            System.err.println("lazarus: rank " + comm.rank() + " failed: " + e);
            e.printStackTrace(System.err);
            comm.abort(1);
            return 1;
        }
    }

    private static void recordStarted(int rank) {
        String dir = System.getenv(ExitStatusFiles.ENV);
        if (dir != null && !dir.isEmpty()) {
            try {
                ExitStatusFiles.markStarted(Path.of(dir), rank);
            } catch (IOException e) {
                // Only the launcher's wording for a failed job depends on it.
            }
        }
    }

    private static void recordStatus(int rank, int status) {
        String dir = System.getenv(ExitStatusFiles.ENV);
        if (dir == null || dir.isEmpty()) {
            return;
        }
        try {
            ExitStatusFiles.write(Path.of(dir), rank, status);
        } catch (IOException e) {
            System.err.println("lazarus: rank " + rank + " could not record its exit status in " + dir + ": " + e);
        }
    }
}
