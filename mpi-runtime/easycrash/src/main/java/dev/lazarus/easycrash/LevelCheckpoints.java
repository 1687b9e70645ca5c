package dev.lazarus.easycrash;

import dev.lazarus.checkpoint.CheckpointReport;
import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.checkpoint.Checkpoints;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.launch.HaltNotice;
import dev.lazarus.mpi.launch.HeartbeatFile.Held;
import dev.lazarus.mpi.launch.HeartbeatFile.Restore;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.mpi.launch.JobHaltedException;
import dev.lazarus.mpi.launch.LaunchDirective;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The checkpoint levels under a {@link RecomputingRun}: the candidate objects (what NVM keeps) are checkpointed
 * after every Nth iteration, and a start that NVM cannot serve restores the newest version every rank can reach.
 * The version is the iteration that had just finished.
 */
final class LevelCheckpoints implements AutoCloseable {
    /**
     * How often the heartbeat's list of versions on L1 is refreshed between checkpoints, milliseconds: a node's
     * parity of a version is written in the background, and the coordinator weighs what the list says at a failure.
     */
    static final long HELD_REFRESH_MILLIS = 250;
    private final Comm comm;
    private final Checkpoints checkpoints;
    private final CheckpointSchedule schedule;
    /** When {@link #heldOnL1} was last listed, {@link System#nanoTime}. */
    private long heldListed = System.nanoTime();
    /** Whether an incomplete checkpoint was said since the last complete one. */
    private boolean incompleteSaid;
    /** What the coordinator chose this launch to restore ({@link LaunchDirective#restoreAtMost}). */
    private final LaunchDirective directive;
    private final PrintStream log;

    private LevelCheckpoints(Comm comm, Checkpoints checkpoints, CheckpointSchedule schedule,
                             LaunchDirective directive, PrintStream log) {
        this.comm = comm;
        this.checkpoints = checkpoints;
        this.schedule = schedule;
        this.directive = directive;
        this.log = log;
    }

    /**
     * @return the levels for this run, or null when {@code lazarus.ckpt.every} is 0 (not auto)
     * @throws IllegalArgumentException on every rank, with the lowest such rank's one line, when a rank's job
     *                                  directory on L1 or L3 is a link or another user's: a user who asked for
     *                                  checkpoints gets them or an error, never a run whose every checkpoint fails
     */
    static LevelCheckpoints open(Comm comm, CheckpointSettings settings, PrintStream log) {
        if (settings == null || !settings.enabled()) {
            return null;
        }
        String refused = refusal(settings);
        if (comm.allreduce(refused == null ? 0L : 1L, ReduceOp.MAX) != 0) {
            throw new IllegalArgumentException(EasyCrash.firstReason(comm, refused));
        }
        PrintStream out = comm.rank() == 0 ? log : null;
        Checkpoints checkpoints = Checkpoints.open(comm, settings, line -> {
            if (log != null) {
                log.println("lazarus: " + line); // every rank's problems, each says its rank
            }
        });
        LaunchDirective directive = LaunchDirective.of(System.getenv());
        if (directive.rollBack()) {
            // A lost node's L2 rebuild runs while the ranks set up their heaps and the application.
            checkpoints.prepareRestart(directive.restoreAtMost(), directive.l2Rebuild());
        }
        return new LevelCheckpoints(comm, checkpoints, CheckpointSchedule.of(settings, directive, out), directive,
                out);
    }

    /** @return why this rank's job directory on a level must not be used, or null */
    private static String refusal(CheckpointSettings settings) {
        List<Path> roots = new ArrayList<>(List.of(settings.l1Directory()));
        settings.pfsDirectory().ifPresent(roots::add);
        for (Path root : roots) {
            try {
                new CheckpointDirectory(root, settings.jobId()).checkJobDirectory();
            } catch (IOException e) {
                return e.getMessage();
            }
        }
        return null;
    }


    /**
     * Protects the candidate objects; call once they are attached. A rollback attaches a new heap, so whatever an
     * earlier attempt of this run protected is forgotten first.
     */
    void protect(EasyCrash easyCrash) {
        checkpoints.unprotectAll();
        CandidateCheckpoints.protect(checkpoints, easyCrash.heap());
    }

    /**
     * @return the restored version (the last finished iteration), where from and how long it took; {@link
     *         Restore#NONE}: start from the beginning
     */
    Restore restore() {
        // The restore is collective: it starts when the last rank's set-up is done, and the wait for that rank (a
        // JVM that started late, a heap that took longer to make) is set-up, not restore.
        comm.idleBarrier();
        long start = System.nanoTime();
        long restoreAtMost = directive.restoreAtMost();
        OptionalLong version = checkpoints.restart(restoreAtMost, directive.l2Rebuild());
        long nanos = System.nanoTime() - start;
        if (log != null) {
            log.println("lazarus: checkpoint restart: " + (version.isPresent()
                    ? "restored version " + version.getAsLong() + " from " + checkpoints.restoredFrom()
                    + ", resuming at iteration " + (version.getAsLong() + 1)
                    + (restoreAtMost == LaunchDirective.NEWEST ? "" : restoreAtMost == version.getAsLong()
                            ? " (the coordinator's choice)" : " (the coordinator chose " + restoreAtMost + ")")
                    : restoreAtMost == LaunchDirective.BEGINNING
                            ? "the coordinator chose the beginning, so nothing is restored"
                            : "no checkpoint every rank can restore, starting from the beginning"));
        }
        // Restore numbers the levels 1 to 3 in Level's order (L2 being L1 rebuilt from the XOR set).
        return version.isPresent() ? new Restore(version.getAsLong(),
                checkpoints.restoredLevel().map(level -> level.ordinal() + 1).orElseThrow(), nanos) : Restore.NONE;
    }

    /**
     * The run resumed from NVM: what it writes is unverified until its acceptance check passes, and the verified
     * versions stay meanwhile (recovery invariant 2).
     */
    void markUnverified() {
        checkpoints.markUnverified();
    }

    /** The resumed run was rejected: its versions are deleted, so the rollback restores a verified one. */
    void discardUnverified() throws IOException {
        checkpoints.discardUnverified();
    }

    /** The main loop of a start begins: the schedule times iterations from here. */
    void mainLoopStarts() {
        schedule.mainLoopStarts();
    }

    /** @return the versions this rank holds complete on L1, for its heartbeat ({@link Checkpoints#heldOnL1}) */
    List<Held> heldOnL1() {
        heldListed = System.nanoTime();
        return checkpoints.heldOnL1();
    }

    /** @return the newest level found full and version found corrupt ({@link Checkpoints#incidents}) */
    HeartbeatFile.Incidents incidents() {
        return checkpoints.incidents();
    }

    /** @return whether the heartbeat's list of versions on L1 is due again ({@value #HELD_REFRESH_MILLIS} ms) */
    boolean heldOnL1Due() {
        return System.nanoTime() - heldListed > HELD_REFRESH_MILLIS * 1_000_000L;
    }

    /**
     * Checkpoints after iteration {@code iteration} if the schedule says so. Collective.
     *
     * @return whether a version was completed (every rank wrote it)
     * @throws JobHaltedException on every rank, after a checkpoint every rank wrote, when the job was asked to halt
     *                            ({@link HaltNotice}; the ranks agree, so they all stop after the same version)
     */
    boolean afterIteration(int iteration) {
        if (!schedule.due(iteration)) {
            return false;
        }
        long start = System.nanoTime();
        CheckpointReport report = checkpoints.checkpoint(iteration);
        schedule.checkpointed(comm, iteration, System.nanoTime() - start);
        if (!report.complete()) {
            // A full level fails every checkpoint after: said once, until one is complete again.
            if (log != null && !incompleteSaid) {
                log.println("lazarus: checkpoint " + iteration + " is incomplete: a rank failed to write it (the next"
                        + " incomplete ones are not said until one is complete)");
            }
            incompleteSaid = true;
            // The heartbeat says what went wrong at once (its list of versions is due now).
            heldListed = System.nanoTime() - HELD_REFRESH_MILLIS * 1_000_000L - 1;
            return false;
        }
        incompleteSaid = false;
        if (comm.allreduce(HaltNotice.posted(System.getenv()) ? 1L : 0L, ReduceOp.MAX) == 1L) {
            throw new JobHaltedException(iteration);
        }
        return true;
    }

    /** Deletes this rank's checkpoints of the job after a finished run. */
    void release() throws IOException {
        checkpoints.release();
        comm.barrier();
    }

    @Override
    public void close() {
        checkpoints.close();
    }
}
