package dev.lazarus.easycrash;

import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.verification.Verdict;

import java.io.IOException;
import java.io.PrintStream;

/**
 * Runs a {@link Recomputable} under EasyCrash: a fresh start, or a resume from the bookmarked iteration with the
 * candidate objects as NVM kept them. When a resumed run fails its acceptance verification the result does not
 * count: the run says so and rolls back, which until the checkpoint levels exist means starting again from the
 * beginning. A finished run releases its NVM state so the next run of the job starts fresh.
 */
public final class RecomputingRun {

    /**
     * @param verdict        the accepted (or final) verification verdict
     * @param seconds        the slowest rank's main-loop time of the run that produced the verdict
     * @param firstIteration where that run's main loop started (1 on a fresh start)
     * @param resumed        whether the verdict comes from an NVM restart
     * @param rolledBack     whether an NVM restart failed verification and the job started again
     */
    public record Outcome(Verdict verdict, double seconds, int firstIteration, boolean resumed, boolean rolledBack) {
    }

    private RecomputingRun() {
    }

    /** Runs {@code app} on this rank (collective). */
    public static Outcome run(Comm comm, Recomputable app, EasyCrashSettings settings, AccessTracer tracer,
                              PrintStream log) throws IOException {
        EasyCrash easyCrash = EasyCrash.start(comm, app.application(), app.signature(), app.regions(),
                app.heapBytes(), settings, tracer, log);
        try {
            Outcome outcome = attempt(comm, app, easyCrash);
            if (outcome.resumed() && !outcome.verdict().accepted()) {
                if (comm.rank() == 0 && log != null) {
                    log.println("lazarus: NVM restart failed acceptance verification (" + outcome.verdict().reason()
                            + ") -> rollback: restarting from the beginning");
                }
                easyCrash.close();
                easyCrash = EasyCrash.restartFresh(comm, app, settings, tracer);
                Outcome again = attempt(comm, app, easyCrash);
                outcome = new Outcome(again.verdict(), again.seconds(), again.firstIteration(), false, true);
            }
            easyCrash.release();
            return outcome;
        } finally {
            easyCrash.close();
        }
    }

    private static Outcome attempt(Comm comm, Recomputable app, EasyCrash easyCrash) {
        app.attach(easyCrash);
        easyCrash.checkPlan(app.application());
        boolean fresh = !easyCrash.resuming();
        app.initialize(fresh);
        int first = easyCrash.firstIteration(1);
        comm.barrier();
        long start = System.nanoTime();
        for (int it = first; it <= app.iterations(); it++) {
            easyCrash.beginIteration(it);
            app.iterate(it, easyCrash);
        }
        double seconds = comm.allreduce((System.nanoTime() - start) * 1e-9, ReduceOp.MAX);
        return new Outcome(app.verify(), seconds, first, !fresh, false);
    }
}
