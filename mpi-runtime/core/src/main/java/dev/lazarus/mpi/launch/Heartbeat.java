package dev.lazarus.mpi.launch;

import dev.lazarus.mpi.memory.RawMemory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * A rank's heartbeat: a small memory-mapped file, {@code rank-N.heartbeat} in the launch's status directory
 * ({@value ExitStatusFiles#ENV}), that the rank updates at the start of every main-loop iteration with plain stores
 * (no system call), and that the coordinator reads while the job runs (to tell a hang from a slow iteration) and after
 * it failed (how far it got, how fast, what it restarted from). A page of shared memory costs the rank a few stores
 * per iteration; the reader takes a consistent snapshot with the sequence counter ({@link HeartbeatFile}).
 *
 * <p>Without a status directory (tests, a rank started by hand) every method does nothing.
 */
public final class Heartbeat implements AutoCloseable {
    private static final Heartbeat NONE = new Heartbeat(null, null);
    /** How often a beat writes the page back to the file. */
    private static final long FORCE_EVERY_NANOS = 1_000_000_000L;

    private final Arena arena;
    /** The whole file: both copies of the page ({@link HeartbeatFile#SLOTS}). */
    private final MemorySegment file;
    private final MemorySegment first;
    private final MemorySegment second;
    /** The copy holding the newest complete state; during a write, the copy being written. */
    private MemorySegment page;
    private long lastBeatNanos;
    private long lastForceNanos;
    private int durations;

    private Heartbeat(Arena arena, MemorySegment file) {
        this.arena = arena;
        this.file = file;
        this.first = file == null ? null : file.asSlice(0, HeartbeatFile.BYTES);
        this.second = file == null ? null : file.asSlice(HeartbeatFile.BYTES, HeartbeatFile.BYTES);
        this.page = first;
    }

    /** A heartbeat that records nothing. */
    public static Heartbeat none() {
        return NONE;
    }

    /**
     * The heartbeat of {@code rank} in the status directory {@code environment} names, or {@link #none()} without one.
     * A file that cannot be made is reported once on standard error and the rank goes on without a heartbeat: the
     * coordinator then cannot detect its hang, but the job runs.
     */
    public static Heartbeat forRank(Map<String, String> environment, int rank) {
        String dir = environment.get(ExitStatusFiles.ENV);
        if (dir == null || dir.isBlank()) {
            return NONE;
        }
        try {
            return open(Path.of(dir), rank);
        } catch (IOException | RuntimeException e) {
            System.err.println("lazarus: rank " + rank + ": no heartbeat (" + e.getMessage() + "); hangs of this rank"
                    + " go undetected");
            return NONE;
        }
    }

    /** Creates (0600, never through a link) and maps {@code rank}'s heartbeat file in {@code dir}. */
    static Heartbeat open(Path dir, int rank) throws IOException {
        Path file = HeartbeatFile.file(dir, rank);
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            MemorySegment copies = channel.map(FileChannel.MapMode.READ_WRITE, 0,
                    (long) HeartbeatFile.SLOTS * HeartbeatFile.BYTES, arena);
            MemorySegment page = copies.asSlice(0, HeartbeatFile.BYTES);
            page.set(ValueLayout.JAVA_INT, HeartbeatFile.VERSION_AT, HeartbeatFile.VERSION);
            byte[] node = nodeName().getBytes(StandardCharsets.UTF_8);
            int length = Math.min(node.length, HeartbeatFile.NODE_BYTES);
            MemorySegment.copy(node, 0, page, ValueLayout.JAVA_BYTE, HeartbeatFile.NODE_AT, length);
            page.set(ValueLayout.JAVA_INT, HeartbeatFile.NODE_LENGTH_AT, length);
            page.set(ValueLayout.JAVA_LONG, HeartbeatFile.PID_AT, ProcessHandle.current().pid());
            page.set(ValueLayout.JAVA_LONG, HeartbeatFile.SET_UP_BEAT_AT, System.currentTimeMillis());
            // The second copy starts as the first (sequence 0 both): a reader takes either.
            MemorySegment.copy(page, 0, copies, HeartbeatFile.BYTES, HeartbeatFile.BYTES);
            // The magic last, in both copies: a node daemon that read the file between the magic and the node's name
            // took the rank for one of another node's and never watched it (NodeLossIT, a rank SIGSTOPped unseen).
            VarHandle.releaseFence();
            for (int slot = 0; slot < HeartbeatFile.SLOTS; slot++) {
                copies.set(ValueLayout.JAVA_INT, (long) slot * HeartbeatFile.BYTES + HeartbeatFile.MAGIC_AT,
                        HeartbeatFile.MAGIC);
            }
            return new Heartbeat(arena, copies);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** The node's name as the checkpoint levels use it: {@code LAZARUS_HOST}, else the host name. */
    private static String nodeName() {
        String host = System.getenv("LAZARUS_HOST");
        if (host != null && !host.isBlank()) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }

    /**
     * A step of set-up before the main loop is done (levels opened, heap attached, state restored): the rank is
     * alive, so a watch can tell a long set-up from a rank that hangs in it.
     */
    public void setUpStep() {
        stepOutsideMainLoop(0);
    }

    /**
     * The main loop is about to start.
     *
     * @param firstIteration   where it starts (1 on a fresh start)
     * @param iterations       its normal number of iterations
     * @param maxIterations    how far a resumed run may go before its verification counts as rejected
     * @param persistent       whether the application's objects live in a persistent heap (not plain arrays)
     * @param resumedFromNvm   whether this start resumed from NVM (once set, it stays set for the launch)
     * @param restored         the checkpoint version this start restored, or {@link HeartbeatFile.Restore#NONE}
     * @param setUpNanos       the time from the start of the run to here (heap attach, restore, initialization)
     */
    public void start(int firstIteration, int iterations, int maxIterations, boolean persistent, boolean resumedFromNvm,
                      HeartbeatFile.Restore restored, long setUpNanos) {
        if (page == null) {
            return;
        }
        // RESUMED stays set through a rollback within the launch: the coordinator counts the NVM attempt and its
        // outcome (ROLLED_BACK) from the launch's last heartbeat.
        int flags = (persistent ? HeartbeatFile.PERSISTENT : 0) | (resumedFromNvm ? HeartbeatFile.RESUMED : 0)
                | (page.get(ValueLayout.JAVA_INT, HeartbeatFile.FLAGS_AT) & HeartbeatFile.RESUMED);
        long seq = beginWrite();
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.FIRST_AT, firstIteration);
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.ITERATIONS_AT, iterations);
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.MAX_ITERATIONS_AT, maxIterations);
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.FLAGS_AT, flags);
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.RESTORED_AT, restored.version());
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.RESTORE_LEVEL_AT, restored.level());
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.RESTORE_NANOS_AT, restored.nanos());
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.SET_UP_AT, setUpNanos);
        long now = System.currentTimeMillis();
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.BEAT_AT, now);
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.MAIN_LOOP_BEGAN_AT, now);
        endWrite(seq);
        lastBeatNanos = 0;
    }

    /**
     * The main loop ended: the rank verifies, waits for its last checkpoint and releases its levels, which may take far
     * longer than an iteration; a watch then judges its silence as it judges set-up.
     */
    public void mainLoopEnded() {
        stepOutsideMainLoop(HeartbeatFile.PAST_MAIN_LOOP);
    }

    /** Records the time of a step outside the main loop, and sets {@code flags} too. */
    private void stepOutsideMainLoop(int flags) {
        if (page == null) {
            return;
        }
        long seq = beginWrite();
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.FLAGS_AT, page.get(ValueLayout.JAVA_INT, HeartbeatFile.FLAGS_AT)
                | flags);
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.SET_UP_BEAT_AT, System.currentTimeMillis());
        endWrite(seq);
    }

    /** Iteration {@code iteration} begins: records it, the time, and how long the previous iteration took. */
    public void beat(int iteration) {
        if (page == null) {
            return;
        }
        long now = System.nanoTime();
        long previous = lastBeatNanos;
        lastBeatNanos = now;
        // Plain stores (RawMemory): a beat runs interpreted for a run's first iterations, where a segment store costs
        // 1.5 us; through segments a beat averaged 19 us in a 2-rank solver.HEAT class A run.
        long seq = beginWrite();
        long at = page.address();
        RawMemory.putInt(at + HeartbeatFile.ITERATION_AT, iteration);
        RawMemory.putLong(at + HeartbeatFile.BEAT_AT, System.currentTimeMillis());
        if (previous != 0) {
            int slot = durations++ % HeartbeatFile.DURATIONS;
            RawMemory.putLong(at + HeartbeatFile.DURATIONS_AT + 8L * slot, now - previous);
            RawMemory.putInt(at + HeartbeatFile.DURATION_COUNT_AT, Math.min(durations, HeartbeatFile.DURATIONS));
        }
        endWrite(seq);
        if (now - lastForceNanos > FORCE_EVERY_NANOS) {
            // On a status directory shared over the network (a job on several hosts) the page reaches the launcher
            // host only when written back: at most a second late, not the kernel's half a minute, which a hang
            // timeout could mistake for silence. On a RAM disk this costs nothing.
            lastForceNanos = now;
            file.force();
        }
    }

    /**
     * Lists the versions complete on L1 after a checkpoint or a restore, so the coordinator knows what each node holds
     * when it cannot read the node's RAM disk; the newest {@value HeartbeatFile#MAX_HELD} are kept.
     *
     * @param held oldest first
     */
    public void heldOnL1(List<HeartbeatFile.Held> held) {
        if (page == null) {
            return;
        }
        List<HeartbeatFile.Held> newest = held.subList(Math.max(0, held.size() - HeartbeatFile.MAX_HELD), held.size());
        long seq = beginWrite();
        int unverified = 0;
        int parity = 0;
        for (int i = 0; i < newest.size(); i++) {
            page.set(ValueLayout.JAVA_LONG, HeartbeatFile.HELD_VERSIONS_AT + 8L * i, newest.get(i).version());
            page.set(ValueLayout.JAVA_LONG, HeartbeatFile.HELD_BYTES_AT + 8L * i, newest.get(i).bytes());
            unverified |= newest.get(i).verified() ? 0 : 1 << i;
            parity |= newest.get(i).l2Parity() ? 1 << i : 0;
        }
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.HELD_UNVERIFIED_AT, unverified);
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.HELD_PARITY_AT, parity);
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.HELD_COUNT_AT, newest.size());
        endWrite(seq);
    }

    /** Records what went wrong with the rank's checkpoint levels (what the coordinator classifies a failure by). */
    public void incidents(HeartbeatFile.Incidents incidents) {
        if (page == null) {
            return;
        }
        long seq = beginWrite();
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.FULL_LEVEL_AT, incidents.fullLevel());
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.FULL_VERSION_AT, incidents.fullVersion());
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.CORRUPT_LEVEL_AT, incidents.corruptLevel());
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.CORRUPT_VERSION_AT, incidents.corruptVersion());
        endWrite(seq);
    }

    /**
     * Every rank's acceptance verification accepted the result (the verdict is collective); the rank now releases
     * its NVM state and checkpoint levels, which it no longer needs. Should it die doing so, the coordinator knows the
     * job's result stands and does not relaunch a job whose checkpoints may already be gone on the other ranks. The
     * rank is still watched as after its main loop until {@link #finish}.
     */
    public void resultAccepted() {
        stepOutsideMainLoop(HeartbeatFile.ACCEPTED);
    }

    /**
     * The run has ended with a verdict.
     *
     * @param accepted          whether the acceptance verification accepted the result
     * @param rolledBack        whether an NVM restart was rejected and the run rolled back
     * @param verificationNanos the time one verification took
     */
    public void finish(boolean accepted, boolean rolledBack, long verificationNanos) {
        if (page == null) {
            return;
        }
        long seq = beginWrite();
        int flags = page.get(ValueLayout.JAVA_INT, HeartbeatFile.FLAGS_AT) | HeartbeatFile.FINISHED
                | (accepted ? HeartbeatFile.ACCEPTED : 0) | (rolledBack ? HeartbeatFile.ROLLED_BACK : 0);
        page.set(ValueLayout.JAVA_INT, HeartbeatFile.FLAGS_AT, flags);
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.VERIFICATION_AT, verificationNanos);
        page.set(ValueLayout.JAVA_LONG, HeartbeatFile.BEAT_AT, System.currentTimeMillis());
        endWrite(seq);
    }

    /**
     * Starts a write into the other copy of the page: its sequence made odd, then the newest state copied into it;
     * {@link #endWrite} makes the sequence even again, one above the copy it came from. A reader that sees the same
     * even value before and after reading a copy has a consistent snapshot (a seqlock), without the writer ever
     * waiting, and takes the newer of the two. A rank killed in the middle of a write leaves the other copy whole:
     * with one copy, its heartbeat stayed unreadable for good, and the coordinator saw a rank that never reached its
     * main loop (no NVM restart offered; seen in CI).
     */
    private long beginWrite() {
        MemorySegment target = page == first ? second : first;
        long from = page.address();
        long to = target.address();
        long seq = RawMemory.getLong(from + HeartbeatFile.SEQUENCE_AT) + 1;
        RawMemory.putLong(to + HeartbeatFile.SEQUENCE_AT, seq);
        VarHandle.storeStoreFence();
        long after = HeartbeatFile.SEQUENCE_AT + 8;
        RawMemory.copy(from + after, to + after, HeartbeatFile.BYTES - after);
        page = target;
        return seq;
    }

    private void endWrite(long seq) {
        VarHandle.storeStoreFence();
        RawMemory.putLong(page.address() + HeartbeatFile.SEQUENCE_AT, seq + 1);
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }
}
