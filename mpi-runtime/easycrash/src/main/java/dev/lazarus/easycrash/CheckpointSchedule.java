package dev.lazarus.easycrash;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.recovery.policy.interval.AutoInterval;

import java.io.PrintStream;

/**
 * After which iterations a run checkpoints: every Nth, or with {@code lazarus.ckpt.every=auto} at Daly's interval
 * for the checkpoint and iteration times the run measures, re-planned after every checkpoint ({@link AutoInterval}).
 * An automatic schedule checkpoints after the first iteration of each start (the first measurement, and an early
 * restore point) and then at the interval; the ranks agree on every measurement (the slowest rank's), so they all
 * checkpoint after the same iterations.
 */
final class CheckpointSchedule {
    /** Weight of the newest checkpoint time in the running estimate: the first, full, one is the costliest. */
    private static final double NEWEST_WEIGHT = 0.5;
    /** A new interval is announced when it differs from the last one announced by more than this fraction. */
    private static final double ANNOUNCE_CHANGE = 0.25;

    private final int every;
    private final double mtbfSeconds;
    private final String mtbfSource;
    private final double recomputability;
    private final PrintStream log;
    private int next;
    private double checkpointSeconds = Double.NaN;
    private long iterationNanos;
    private int iterationsTimed;
    private long lastEnd;
    private int announced;

    private CheckpointSchedule(int every, double mtbfSeconds, String mtbfSource, double recomputability,
                               PrintStream log) {
        this.every = every;
        this.mtbfSeconds = mtbfSeconds;
        this.mtbfSource = mtbfSource;
        this.recomputability = recomputability;
        this.log = log;
    }

    /**
     * @param directive the coordinator's directive of this launch, for its MTBF and R estimates
     * @param log       where rank 0 announces the interval (null on other ranks)
     */
    static CheckpointSchedule of(CheckpointSettings settings, LaunchDirective directive, PrintStream log) {
        if (!settings.auto()) {
            return new CheckpointSchedule(settings.every(), Double.NaN, "", Double.NaN, log);
        }
        double configured = settings.mtbfSeconds();
        double mtbf = Double.isFinite(configured) ? configured : Double.isFinite(directive.mtbfSeconds())
                ? directive.mtbfSeconds() : AutoInterval.DEFAULT_MTBF_SECONDS;
        String source = Double.isFinite(configured) ? "configured" : Double.isFinite(directive.mtbfSeconds())
                ? "measured by the coordinator" : "assumed (set --mtbf)";
        return new CheckpointSchedule(0, mtbf, source, directive.recomputability(), log);
    }

    /**
     * A start's main loop begins (a fresh start, a restore, or the rollback after a rejected NVM restart): its first
     * iteration is timed from here, and an automatic schedule checkpoints after it.
     */
    void mainLoopStarts() {
        lastEnd = System.nanoTime();
        next = 0;
    }

    /** @return whether the ranks checkpoint after {@code iteration}; times the iteration that just ended */
    boolean due(int iteration) {
        long now = System.nanoTime();
        if (lastEnd != 0) {
            iterationNanos += now - lastEnd;
            iterationsTimed++;
        }
        lastEnd = now;
        return every > 0 ? iteration % every == 0 : iteration >= next;
    }

    /**
     * The checkpoint after {@code iteration} took {@code nanos} on this rank; an automatic schedule plans the next
     * one. Collective for an automatic schedule.
     */
    void checkpointed(Comm comm, int iteration, long nanos) {
        lastEnd = System.nanoTime(); // the checkpoint is not iteration time
        if (every > 0) {
            return;
        }
        double seconds = comm.allreduce(nanos * 1e-9, ReduceOp.MAX);
        double iterationSeconds = comm.allreduce(iterationNanos * 1e-9 / Math.max(1, iterationsTimed), ReduceOp.MAX);
        checkpointSeconds = Double.isNaN(checkpointSeconds) ? seconds
                : NEWEST_WEIGHT * seconds + (1 - NEWEST_WEIGHT) * checkpointSeconds;
        AutoInterval interval = AutoInterval.choose(Math.max(checkpointSeconds, 1e-6), Math.max(iterationSeconds, 1e-9),
                mtbfSeconds, mtbfSource, recomputability);
        next = iteration + interval.iterations();
        if (log != null && (announced == 0
                || Math.abs(interval.iterations() - announced) > ANNOUNCE_CHANGE * announced)) {
            log.println("lazarus: checkpoint interval auto: " + interval.describe());
            announced = interval.iterations();
        }
    }
}
