package dev.lazarus.easycrash;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.launch.Heartbeat;
import dev.lazarus.mpi.launch.HeartbeatFile.Restore;
import dev.lazarus.mpi.launch.JobHaltedException;
import dev.lazarus.mpi.launch.RecoveryAttemptFailedException;
import dev.lazarus.recovery.policy.FixedOrderPolicy;
import dev.lazarus.recovery.policy.Rollback;
import dev.lazarus.verification.Verdict;

import java.io.IOException;
import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * Runs a {@link Recomputable} under EasyCrash: a fresh start, or a resume from the bookmarked iteration with the
 * candidate objects as NVM kept them. With {@code lazarus.ckpt.every} N, the candidate objects are also checkpointed
 * to the levels after every Nth iteration, and a start NVM cannot serve restores the newest checkpoint instead of
 * starting from the beginning. When a resumed run fails its acceptance verification the result does not count: the
 * run says so and rolls back, to the newest checkpoint if there is one, else to the beginning. A finished run
 * releases its NVM state and its checkpoints so the next run of the job starts fresh.
 */
public final class RecomputingRun {

    /**
     * @param verdict        the accepted (or final) verification verdict
     * @param seconds             the slowest rank's main-loop time of the run that produced the verdict, extra
     *                            iterations after a resumed run's rejected verdict included
     * @param verificationSeconds the slowest rank's time in {@link Recomputable#verify()} in that run (NPB times the
     *                            verification of some kernels and not of others, so each adds it or not)
     * @param firstIteration      where that run's main loop started (1 on a fresh start)
     * @param resumed             whether the verdict comes from an NVM restart
     * @param rolledBack          whether an NVM restart failed verification and the job started again
     */
    public record Outcome(Verdict verdict, double seconds, double verificationSeconds, int firstIteration,
                          boolean resumed, boolean rolledBack) {
    }

    private RecomputingRun() {
    }

    /**
     * Runs a whole application as a launch does (collective): {@link RecomputableApplication#prepare prepare},
     * {@link RecomputableApplication#announce announce}, the main loop under EasyCrash with the checkpoint settings of
     * this JVM (messages of the run on standard error), and {@link RecomputableApplication#report report}.
     *
     * @param settings where the persistent heap lives and whether EasyCrash is on
     */
    public static Outcome runApplication(Comm comm, RecomputableApplication application, String[] args,
                                         EasyCrashSettings settings) throws IOException {
        long start = System.nanoTime();
        Recomputable app = application.prepare(comm, args);
        application.announce();
        return run(comm, app, settings, CheckpointSettings.fromSystem().conclude(app.application()), null,
                System.err, outcome -> {
                    application.report(outcome, (System.nanoTime() - start) * 1e-9);
                    System.out.flush();
                });
    }

    /** Runs {@code app} on this rank (collective), with the checkpoint settings of this JVM. */
    public static Outcome run(Comm comm, Recomputable app, EasyCrashSettings settings, AccessTracer tracer,
                              PrintStream log) throws IOException {
        return run(comm, app, settings, CheckpointSettings.fromSystem().conclude(app.application()), tracer, log);
    }

    /**
     * Runs {@code app} on this rank (collective).
     *
     * @param checkpoints concluded checkpoint settings; null or {@code every() == 0} for no checkpoint levels
     */
    public static Outcome run(Comm comm, Recomputable app, EasyCrashSettings settings,
                              CheckpointSettings checkpoints, AccessTracer tracer, PrintStream log)
            throws IOException {
        return run(comm, app, settings, checkpoints, tracer, log, outcome -> { });
    }

    /**
     * Runs {@code app} on this rank (collective), handing the final outcome to {@code report} before the run
     * records its result as accepted and releases its NVM state and checkpoints: a rank killed after that record
     * ends the job as verified, so whatever the user reads of the result is out by then.
     */
    public static Outcome run(Comm comm, Recomputable app, EasyCrashSettings settings,
                              CheckpointSettings checkpoints, AccessTracer tracer, PrintStream log,
                              Consumer<Outcome> report) throws IOException {
        try (Heartbeat heartbeat = Heartbeat.forRank(System.getenv(), comm.rank())) {
            Outcome outcome;
            if (settings.easyCrashOff()) {
                outcome = plainRun(comm, app, checkpoints, heartbeat, log);
                report.accept(outcome);
            } else {
                outcome = persistentRun(comm, app, settings, checkpoints, tracer, heartbeat, log, report);
            }
            heartbeat.finish(outcome.verdict().accepted(), outcome.rolledBack(),
                    (long) (outcome.verificationSeconds() * 1e9));
            return outcome;
        }
    }

    /** The run on the persistent heap: NVM restart or a fresh start, checkpoints, rollback after a rejection. */
    private static Outcome persistentRun(Comm comm, Recomputable app, EasyCrashSettings settings,
                                         CheckpointSettings checkpoints, AccessTracer tracer, Heartbeat heartbeat,
                                         PrintStream log, Consumer<Outcome> report) throws IOException {
        // The levels first: a level the run cannot use (a linked job directory) is refused before NVM is touched.
        LevelCheckpoints levels = LevelCheckpoints.open(comm, checkpoints, log);
        heartbeat.setUpStep();
        EasyCrash easyCrash;
        try {
            easyCrash = EasyCrash.start(comm, app.application(), app.signature(), app.regions(), app.heapBytes(),
                    settings, tracer, log);
        } catch (IOException | RuntimeException | Error e) {
            if (levels != null) {
                levels.close();
            }
            throw e;
        }
        try {
            Outcome outcome = firstAttempt(comm, app, easyCrash, levels, heartbeat, log);
            if (outcome.resumed() && !outcome.verdict().accepted()) {
                Rollback rollback = FixedOrderPolicy.INSTANCE.afterRejectedRestart(levels != null);
                if (comm.rank() == 0 && log != null) {
                    log.println("lazarus: NVM restart failed acceptance verification (" + outcome.verdict().reason()
                            + ") -> rollback: " + rollback.description());
                }
                if (levels != null && rollback.discardUnverified()) {
                    levels.discardUnverified();
                }
                easyCrash.close();
                easyCrash = EasyCrash.restartFresh(comm, app, settings, tracer);
                Outcome again = attempt(comm, app, easyCrash, levels, heartbeat, log);
                outcome = new Outcome(again.verdict(), again.seconds(), again.verificationSeconds(),
                        again.firstIteration(), false, true);
            }
            report.accept(outcome);
            if (outcome.verdict().accepted()) {
                heartbeat.resultAccepted(); // before anything is released: a death from here on loses no result
            }
            easyCrash.release();
            if (levels != null && outcome.verdict().accepted()) {
                levels.release();
            }
            return outcome;
        } finally {
            easyCrash.close();
            if (levels != null) {
                levels.close();
            }
        }
    }

    /**
     * EasyCrash off: the application on plain Java arrays, from the beginning, with nothing kept; the plain program
     * that Lazarus's overheads are measured against.
     */
    private static Outcome plainRun(Comm comm, Recomputable app, CheckpointSettings checkpoints, Heartbeat heartbeat,
                                    PrintStream log) {
        if (checkpoints != null && checkpoints.enabled()) {
            throw new IllegalArgumentException(EasyCrashSettings.EASYCRASH + "=off runs on plain Java arrays, which"
                    + " are not checkpointed: drop the checkpoint interval");
        }
        try (EasyCrash plain = EasyCrash.plain(comm, app.application(), app.regions(), log)) {
            return attempt(comm, app, plain, null, heartbeat, log);
        }
    }

    /**
     * The first attempt of this launch. An NVM restart that throws is a failed attempt (recovery invariant 3): it is
     * recorded in NVM, so the next launch rolls back instead of resuming the same state, and reported as a {@link
     * RecoveryAttemptFailedException}, on which the launcher relaunches the job once.
     */
    private static Outcome firstAttempt(Comm comm, Recomputable app, EasyCrash easyCrash, LevelCheckpoints levels,
                                        Heartbeat heartbeat, PrintStream log) throws IOException {
        try {
            return attempt(comm, app, easyCrash, levels, heartbeat, log);
        } catch (JobHaltedException halted) {
            throw halted; // a clean stop after a checkpoint, not a failed attempt
        } catch (RuntimeException | Error failure) {
            if (!easyCrash.resuming()) {
                throw failure;
            }
            String what = easyCrash.recordFailedAttempt(failure);
            throw new RecoveryAttemptFailedException("the NVM restart at iteration " + easyCrash.recovery().iteration()
                    + " failed: " + what + " -> recorded; the next launch rolls back", failure);
        }
    }

    private static Outcome attempt(Comm comm, Recomputable app, EasyCrash easyCrash, LevelCheckpoints levels,
                                   Heartbeat heartbeat, PrintStream log) {
        long setUpStart = System.nanoTime();
        app.attach(easyCrash);
        easyCrash.checkPlan(app.application());
        heartbeat.setUpStep();
        boolean fromNvm = easyCrash.resuming();
        Restore restored = Restore.NONE;
        if (levels != null) {
            levels.protect(easyCrash);
            if (fromNvm) {
                levels.markUnverified();
            } else {
                restored = levels.restore();
            }
            heartbeat.setUpStep();
        }
        boolean fresh = !fromNvm && !restored.any();
        app.initialize(fresh);
        if (!fromNvm) {
            easyCrash.persistStartingState();
        }
        heartbeat.setUpStep();
        int first = restored.any() ? (int) restored.version() + 1 : easyCrash.firstIteration(1);
        comm.barrier();
        long start = System.nanoTime();
        heartbeat.start(first, app.iterations(), app.maxIterations(), !easyCrash.plainArrays(), fromNvm,
                restored, start - setUpStart);
        if (levels != null) {
            tellLevels(heartbeat, levels);
            levels.mainLoopStarts();
        }
        for (int it = first; it <= app.iterations(); it++) {
            iterate(app, easyCrash, levels, heartbeat, it);
        }
        heartbeat.mainLoopEnded();
        VerificationClock clock = new VerificationClock(app);
        Verdict verdict = clock.verify();
        if (fromNvm && !verdict.accepted() && app.maxIterations() > app.iterations()) {
            verdict = extraIterations(comm, app, easyCrash, levels, heartbeat, clock, verdict, log);
        }
        long total = System.nanoTime() - start;
        double seconds = comm.allreduce((total - clock.nanos) * 1e-9, ReduceOp.MAX);
        double verificationSeconds = comm.allreduce(clock.nanos * 1e-9, ReduceOp.MAX);
        return new Outcome(verdict, seconds, verificationSeconds, first, !fresh, false);
    }

    /** Runs an application's verification and adds up the time it takes. */
    private static final class VerificationClock {
        private final Recomputable app;
        private long nanos;

        VerificationClock(Recomputable app) {
            this.app = app;
        }

        Verdict verify() {
            long start = System.nanoTime();
            Verdict verdict = app.verify();
            nanos += System.nanoTime() - start;
            return verdict;
        }
    }

    private static void iterate(Recomputable app, EasyCrash easyCrash, LevelCheckpoints levels, Heartbeat heartbeat,
                                int iteration) {
        heartbeat.beat(iteration);
        easyCrash.beginIteration(iteration);
        app.iterate(iteration, easyCrash);
        if (levels != null && (levels.afterIteration(iteration) || levels.heldOnL1Due())) {
            tellLevels(heartbeat, levels);
        }
    }

    /** The heartbeat says what the levels hold and what went wrong with them, for the coordinator. */
    private static void tellLevels(Heartbeat heartbeat, LevelCheckpoints levels) {
        heartbeat.heldOnL1(levels.heldOnL1());
        heartbeat.incidents(levels.incidents());
    }

    /**
     * EasyCrash's S2 outcome: a run resumed from NVM state that is close to, but not exactly, where it left off may
     * need a few more iterations to converge. It goes on up to {@link Recomputable#maxIterations()}, verifying after
     * each, as the crash-test campaign that predicted its recomputability does; the first accepted verdict counts.
     * Collective: every rank gets the same verdicts.
     */
    private static Verdict extraIterations(Comm comm, Recomputable app, EasyCrash easyCrash, LevelCheckpoints levels,
                                           Heartbeat heartbeat, VerificationClock clock, Verdict rejected,
                                           PrintStream log) {
        if (comm.rank() == 0 && log != null) {
            log.println("lazarus: NVM restart: verification failed after iteration " + app.iterations() + " ("
                    + rejected.reason() + "); iterating on up to " + app.maxIterations() + " (EasyCrash S2)");
        }
        Verdict verdict = rejected;
        int it = app.iterations();
        while (!verdict.accepted() && it < app.maxIterations()) {
            iterate(app, easyCrash, levels, heartbeat, ++it);
            verdict = clock.verify();
        }
        if (comm.rank() == 0 && log != null && verdict.accepted()) {
            log.println("lazarus: NVM restart: accepted after " + (it - app.iterations()) + " extra iterations");
        }
        return verdict;
    }
}
