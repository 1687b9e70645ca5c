package dev.lazarus.mpi.launch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The layout of a {@link Heartbeat} file and its reader. The file holds {@link #SLOTS} copies of the page below, one
 * after the other; the writer updates them in turn, and the reader takes the consistent copy with the higher
 * sequence. Native byte order (writer and reader share the node):
 *
 * <pre>
 *   0 int   magic 'LZHB'          4 int  version 7
 *   8 long  sequence (odd while the rank writes)
 *  16 long  last beat, epoch milliseconds
 *  24 int   iteration begun       28 int  first iteration of this start
 *  32 int   iterations            36 int  flags (persistent, resumed, finished, accepted, rolled back, past its
 *                                         main loop)
 *  40 long  restored version (-1: none)
 *  48 long  set-up nanoseconds    56 long one verification, nanoseconds
 *  64 int   durations recorded (at most 16)   68 int  max iterations (a resumed run may go that far)
 *  72 long[16] the last iterations' durations, nanoseconds, a ring
 * 200 int   length of the node's name     204 byte[52] the node's name, UTF-8 (written once, at open)
 * 256 long  the restore's nanoseconds   264 int  the level it restored from (1 L1, 2 L1 rebuilt from L2, 3 L3; 0 none)
 * 268 int   versions complete on L1 listed (at most 8, the newest)
 * 272 long[8] those versions            336 long[8] this rank's bytes of each on L1 (manifest and data)
 * 400 int   a bit per listed version written from unverified state (bit i: the i-th)
 * 404 int   a bit per listed version whose L2 parity this rank's node has written
 * 408 long  the rank's process id (written once, at open): whom its node daemon kills when it hangs
 * 416 int   the level a checkpoint could not be written to for lack of space (1 L1, 3 L3; 0 none)
 * 420 int   the level a restore found a version corrupt on (1 L1, 3 L3; 0 none)
 * 424 long  the version that did not fit           432 long  the version found corrupt
 * 440 long  the last step outside the main loop, epoch milliseconds (written at open, at each step of set-up
 *           before the main loop, and when the main loop ends)
 * 448 long  when this start's main loop began, epoch milliseconds (0: not yet)
 * </pre>
 */
public final class HeartbeatFile {
    /** The bytes of one copy of the page. */
    static final int BYTES = 456;
    /** Copies of the page in the file: a rank killed while it writes one leaves the other whole. */
    static final int SLOTS = 2;
    static final int MAGIC = 0x4c5a4842;
    static final int VERSION = 7;
    static final int DURATIONS = 16;

    static final int MAGIC_AT = 0;
    static final int VERSION_AT = 4;
    static final int SEQUENCE_AT = 8;
    static final int BEAT_AT = 16;
    static final int ITERATION_AT = 24;
    static final int FIRST_AT = 28;
    static final int ITERATIONS_AT = 32;
    static final int FLAGS_AT = 36;
    static final int RESTORED_AT = 40;
    static final int SET_UP_AT = 48;
    static final int VERIFICATION_AT = 56;
    static final int DURATION_COUNT_AT = 64;
    static final int MAX_ITERATIONS_AT = 68;
    static final int DURATIONS_AT = 72;
    static final int NODE_LENGTH_AT = 200;
    static final int NODE_AT = 204;
    static final int NODE_BYTES = 52;
    static final int RESTORE_NANOS_AT = 256;
    static final int RESTORE_LEVEL_AT = 264;
    static final int HELD_COUNT_AT = 268;
    static final int HELD_VERSIONS_AT = 272;
    static final int HELD_BYTES_AT = 336;
    static final int HELD_UNVERIFIED_AT = 400;
    static final int HELD_PARITY_AT = 404;
    static final int PID_AT = 408;
    static final int FULL_LEVEL_AT = 416;
    static final int CORRUPT_LEVEL_AT = 420;
    static final int FULL_VERSION_AT = 424;
    static final int CORRUPT_VERSION_AT = 432;
    static final int SET_UP_BEAT_AT = 440;
    static final int MAIN_LOOP_BEGAN_AT = 448;
    /** The most versions on L1 a heartbeat lists. */
    public static final int MAX_HELD = 8;

    static final int PERSISTENT = 1;
    static final int RESUMED = 2;
    static final int FINISHED = 4;
    static final int ACCEPTED = 8;
    static final int ROLLED_BACK = 16;
    static final int PAST_MAIN_LOOP = 32;

    /**
     * How long a reader tries for a consistent snapshot. Bounded by time, not by a number of tries: a rank's write can
     * stall inside its seqlock for milliseconds (its page written back to a disk file system once a second, which a
     * store into the page then waits for), and a thousand quick tries were over before it ended (seen once in CI).
     */
    private static final long PATIENCE_NANOS = 200_000_000L;

    private HeartbeatFile() {
    }

    /** The heartbeat file of {@code rank} in the status directory {@code dir}. */
    public static Path file(Path dir, int rank) {
        return dir.resolve("rank-" + rank + ".heartbeat");
    }

    /**
     * Every rank's heartbeat in the status directory {@code dir}, in rank order; empty for a rank whose heartbeat is
     * not there (see {@link #read}) or could not be read.
     */
    public static List<Optional<HeartbeatSnapshot>> readAll(Path dir, int ranks) {
        List<Optional<HeartbeatSnapshot>> beats = new ArrayList<>(ranks);
        for (int rank = 0; rank < ranks; rank++) {
            try {
                beats.add(read(dir, rank));
            } catch (IOException e) {
                beats.add(Optional.empty());
            }
        }
        return beats;
    }

    /**
     * A consistent snapshot of {@code rank}'s heartbeat, or empty when the rank wrote none (it never reached its main
     * loop, or had no status directory) or the file is not a heartbeat (wrong size, magic or version; a link).
     */
    public static Optional<HeartbeatSnapshot> read(Path dir, int rank) throws IOException {
        Path file = file(dir, rank);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) != (long) SLOTS * BYTES) {
            return Optional.empty();
        }
        ByteBuffer page = ByteBuffer.allocate(BYTES).order(ByteOrder.nativeOrder());
        ByteBuffer sequence = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            for (long deadline = System.nanoTime() + PATIENCE_NANOS; System.nanoTime() < deadline; ) {
                // The copy newest when the read begins: its sequence even and the higher. The writer rewrites it only
                // after the other copy holds a newer state, so a read taken from it is never older than one before.
                long newest = -1;
                long newestAt = -1;
                for (int slot = 0; slot < SLOTS; slot++) {
                    long at = (long) slot * BYTES;
                    long seq = sequenceOf(channel, sequence, at);
                    if ((seq & 1) == 0 && seq > newest) {
                        newest = seq;
                        newestAt = at;
                    }
                }
                if (newestAt >= 0) {
                    page.clear();
                    while (page.hasRemaining() && channel.read(page, newestAt + page.position()) > 0) {
                        // a page of the page cache: one read in practice
                    }
                    if (sequenceOf(channel, sequence, newestAt) == newest) {
                        return parse(page);
                    }
                }
                Thread.yield();
            }
        }
        return Optional.empty();
    }

    private static long sequenceOf(FileChannel channel, ByteBuffer buffer, long slotAt) throws IOException {
        buffer.clear();
        channel.read(buffer, slotAt + SEQUENCE_AT);
        return buffer.getLong(0);
    }

    private static Optional<HeartbeatSnapshot> parse(ByteBuffer page) {
        if (page.getInt(MAGIC_AT) != MAGIC || page.getInt(VERSION_AT) != VERSION) {
            return Optional.empty();
        }
        int count = Math.clamp(page.getInt(DURATION_COUNT_AT), 0, DURATIONS);
        long[] durations = new long[count];
        for (int i = 0; i < count; i++) {
            durations[i] = page.getLong(DURATIONS_AT + 8 * i);
        }
        int flags = page.getInt(FLAGS_AT);
        int heldCount = Math.clamp(page.getInt(HELD_COUNT_AT), 0, MAX_HELD);
        int unverified = page.getInt(HELD_UNVERIFIED_AT);
        int parity = page.getInt(HELD_PARITY_AT);
        List<Held> held = new java.util.ArrayList<>();
        for (int i = 0; i < heldCount; i++) {
            held.add(new Held(page.getLong(HELD_VERSIONS_AT + 8 * i), Math.max(0, page.getLong(HELD_BYTES_AT + 8 * i)),
                    (unverified & (1 << i)) == 0, (parity & (1 << i)) != 0));
        }
        byte[] node = new byte[Math.clamp(page.getInt(NODE_LENGTH_AT), 0, NODE_BYTES)];
        page.get(NODE_AT, node);
        return Optional.of(new HeartbeatSnapshot(new String(node, java.nio.charset.StandardCharsets.UTF_8),
                page.getLong(BEAT_AT), page.getInt(ITERATION_AT),
                page.getInt(FIRST_AT), page.getInt(ITERATIONS_AT), page.getInt(MAX_ITERATIONS_AT),
                (flags & PERSISTENT) != 0,
                (flags & RESUMED) != 0, (flags & FINISHED) != 0, (flags & ACCEPTED) != 0,
                (flags & ROLLED_BACK) != 0, new Restore(page.getLong(RESTORED_AT),
                        Math.clamp(page.getInt(RESTORE_LEVEL_AT), 0, Restore.DEEPEST_LEVEL),
                        Math.max(0, page.getLong(RESTORE_NANOS_AT))), page.getLong(SET_UP_AT),
                page.getLong(VERIFICATION_AT), durations, held, page.getLong(PID_AT),
                new Incidents(Math.clamp(page.getInt(FULL_LEVEL_AT), 0, Restore.DEEPEST_LEVEL),
                        page.getLong(FULL_VERSION_AT), Math.clamp(page.getInt(CORRUPT_LEVEL_AT), 0,
                                Restore.DEEPEST_LEVEL), page.getLong(CORRUPT_VERSION_AT)),
                page.getLong(SET_UP_BEAT_AT), (flags & PAST_MAIN_LOOP) != 0, page.getLong(MAIN_LOOP_BEGAN_AT)));
    }

    /**
     * A checkpoint version complete on L1 (every rank wrote it), as one rank holds it.
     *
     * @param version  the version
     * @param bytes    this rank's bytes of it on L1
     * @param verified whether it was written from verified state (not by a resumed run still unchecked)
     * @param l2Parity whether this rank's node has written its L2 parity of it (so L2 can rebuild a lost member)
     */
    public record Held(long version, long bytes, boolean verified, boolean l2Parity) {
        /** @return this with {@code l2Parity} as given */
        public Held withL2Parity(boolean written) {
            return new Held(version, bytes, verified, written);
        }
    }

    /**
     * What went wrong with the rank's checkpoint levels, newest of each: a level a checkpoint did not fit on (disk
     * full), and a version a restore found corrupt (it failed its checksum, and an older one was restored).
     *
     * @param fullLevel      1 (L1) or 3 (L3) for the level that was full, 0 for none
     * @param fullVersion    the version that did not fit
     * @param corruptLevel   1 (L1) or 3 (L3) for the level a corrupt version was found on, 0 for none
     * @param corruptVersion that version
     */
    public record Incidents(int fullLevel, long fullVersion, int corruptLevel, long corruptVersion) {
        /** Nothing went wrong. */
        public static final Incidents NONE = new Incidents(0, 0, 0, 0);

        /** @return whether a level was full */
        public boolean full() {
            return fullLevel > 0;
        }

        /** @return whether a version was found corrupt */
        public boolean corrupt() {
            return corruptLevel > 0;
        }
    }

    /**
     * A start's restore of a checkpoint version.
     *
     * @param version the version restored, or -1 when the start restored none
     * @param level   where from: 1 (L1), 2 (L1 after its node's files were rebuilt from L2), 3 (L3); 0 with none
     * @param nanos   how long the restore took on this rank, every level it tried included
     */
    public record Restore(long version, int level, long nanos) {
        /** The deepest level number. */
        public static final int DEEPEST_LEVEL = 3;
        /** No restore: a start from the beginning or from NVM. */
        public static final Restore NONE = new Restore(-1, 0, 0);

        /** @return whether a version was restored */
        public boolean any() {
            return version >= 0;
        }

        /**
         * @return a launch's restore from its ranks' restores: the version every rank restored, the deepest level any
         *         rank read and the slowest rank's time; {@link #NONE} when some rank restored nothing or the ranks
         *         name different versions
         */
        public static Restore ofLaunch(List<Restore> ranks) {
            long version = ranks.isEmpty() ? -1 : ranks.getFirst().version();
            if (version < 0 || ranks.stream().anyMatch(r -> r.version() != version)) {
                return NONE;
            }
            return new Restore(version, ranks.stream().mapToInt(Restore::level).max().orElseThrow(),
                    ranks.stream().mapToLong(Restore::nanos).max().orElseThrow());
        }
    }

    /**
     * What a rank's heartbeat said.
     *
     * @param node              the node the rank runs on
     * @param lastBeatMillis    when it last wrote, epoch milliseconds (0: it never reached its main loop)
     * @param iteration         the iteration it had begun (0: none yet)
     * @param firstIteration    where this start's main loop began
     * @param iterations        the application's normal number of iterations
     * @param maxIterations     how far a resumed run may iterate before its verification counts as rejected
     * @param persistent        whether its objects live in a persistent heap
     * @param resumedFromNvm    whether this launch began by resuming from NVM (also after it rolled back)
     * @param finished          whether the run reached its verdict
     * @param accepted          whether the verdict accepted the result (recorded before the rank releases its levels,
     *                          so it may be set before {@code finished})
     * @param rolledBack        whether an NVM restart was rejected and the run rolled back
     * @param restored          the checkpoint version this start restored, if any: where from and how long it took
     * @param setUpNanos        the time from the run's start to its first iteration
     * @param verificationNanos the time of one verification (0 until finished)
     * @param durations         the last iterations' durations, nanoseconds, in no particular order
     * @param heldOnL1          the versions complete on L1 as this rank last listed them, oldest first
     * @param pid               the rank's process id (0 when unknown)
     * @param incidents         the newest level that was full and version found corrupt, as the rank met them
     * @param setUpBeatMillis   its last step outside the main loop, epoch milliseconds (0: none): of set-up before
     *                          it (heartbeat opened, levels opened, heap attached, restored, initialized), or the
     *                          loop's end
     * @param pastMainLoop      whether its main loop ended (it verifies, waits for its last checkpoint, releases)
     * @param mainLoopBeganMillis when this start's main loop began, epoch milliseconds (0: not yet); a rollback
     *                          within the launch starts it again
     */
    public record HeartbeatSnapshot(String node, long lastBeatMillis, int iteration, int firstIteration, int iterations,
                                    int maxIterations, boolean persistent, boolean resumedFromNvm, boolean finished,
                                    boolean accepted,
                                    boolean rolledBack, Restore restored, long setUpNanos,
                                    long verificationNanos, long[] durations, List<Held> heldOnL1, long pid,
                                    Incidents incidents, long setUpBeatMillis, boolean pastMainLoop,
                                    long mainLoopBeganMillis) {

        public HeartbeatSnapshot {
            heldOnL1 = List.copyOf(heldOnL1);
        }

        /** @return whether the rank is in its main loop: it began it, and the loop has not ended */
        public boolean inMainLoop() {
            return lastBeatMillis > 0 && !pastMainLoop;
        }

        /**
         * @return when the rank was last seen to make progress, epoch milliseconds: its last beat in the main loop or
         *         its last step outside it, whichever came later (0: neither)
         */
        public long lastSignOfLifeMillis() {
            return Math.max(lastBeatMillis, setUpBeatMillis);
        }

        /** @return the median of the recorded iteration times, in seconds, or NaN when none is recorded */
        public double medianIterationSeconds() {
            if (durations.length == 0) {
                return Double.NaN;
            }
            long[] sorted = durations.clone();
            Arrays.sort(sorted);
            int mid = sorted.length / 2;
            double median = sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
            return median * 1e-9;
        }
    }
}
