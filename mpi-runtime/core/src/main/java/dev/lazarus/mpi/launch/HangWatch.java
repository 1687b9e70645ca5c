package dev.lazarus.mpi.launch;

import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Tells a hung rank from a slow one by its heartbeat: a rank that has begun its main loop and has not beaten for
 * longer than the hang timeout is hung. The timeout is {@code --hang-timeout} when given, else ten times the slowest
 * rank's median iteration time, and never under {@link #MINIMUM} (set-up between two iterations, a checkpoint or a
 * verification may take far longer than an iteration). Before its main loop a rank is judged by its steps of set-up
 * (levels opened, heap attached, state restored, initialized): one silent for longer than {@code --setup-timeout},
 * by default {@link #SET_UP_MINIMUM} or {@code --hang-timeout} when that is longer, is hung. A timeout chosen for
 * iterations is no measure of set-up: a cold JVM, an L2 rebuild or a restore of a large state take far longer than an
 * iteration. The same holds after the main loop (the verification, the wait for the last checkpoint's drain, the
 * release of the levels).
 * A rank that hangs before it opens its heartbeat (JVM start, {@code MPI_Init}) is judged from the launch's start
 * with the set-up timeout, by a watch that sees every rank of the launch ({@link #hung(List, long, long)}); a node
 * daemon's watch, which sees its own node's ranks only, cannot tell a rank elsewhere from one that has not begun.
 *
 * @param explicit the timeout the user gave, or null for the derived one
 * @param setUp    the set-up timeout the user gave ({@code --setup-timeout}), or null for the default
 * @param patience how many timeouts make a hang for this watch: 1, or 2 for the coordinator's watch behind node
 *                 daemons that watch their ranks themselves (it only catches what a lost daemon no longer can)
 */
public record HangWatch(Duration explicit, Duration setUp, int patience) {
    /** The least a derived timeout can be. */
    public static final Duration MINIMUM = Duration.ofSeconds(60);
    /** How many median iterations of silence make a hang. */
    public static final int ITERATIONS = 10;
    /** How long one step of set-up may take at least. */
    public static final Duration SET_UP_MINIMUM = Duration.ofMinutes(10);

    /** @throws IllegalArgumentException for a timeout that is not positive */
    public HangWatch {
        if (explicit != null && (explicit.isNegative() || explicit.isZero())) {
            throw new IllegalArgumentException("--hang-timeout must be positive (got " + explicit.toSeconds() + ")");
        }
        if (setUp != null && (setUp.isNegative() || setUp.isZero())) {
            throw new IllegalArgumentException("--setup-timeout must be positive (got " + setUp.toSeconds() + ")");
        }
        if (patience < 1) {
            throw new IllegalArgumentException("patience " + patience + " must be at least 1");
        }
    }

    /**
     * @param explicit the timeout the user gave, or null for the derived one
     * @param setUp    the set-up timeout the user gave, or null for the default
     */
    public HangWatch(Duration explicit, Duration setUp) {
        this(explicit, setUp, 1);
    }

    /** @param explicit the timeout the user gave, or null for the derived one */
    public HangWatch(Duration explicit) {
        this(explicit, null, 1);
    }

    /** @return this watch, twice as patient: the coordinator's behind node daemons that watch their ranks */
    public HangWatch behindNodeDaemons() {
        return new HangWatch(explicit, setUp, 2);
    }

    /** @return the timeout for ranks with these heartbeats */
    public Duration timeout(List<Optional<HeartbeatSnapshot>> heartbeats) {
        if (explicit != null) {
            return explicit.multipliedBy(patience);
        }
        double slowest = heartbeats.stream().flatMap(Optional::stream)
                .mapToDouble(HeartbeatSnapshot::medianIterationSeconds).filter(Double::isFinite).max().orElse(0);
        Duration derived = Duration.ofMillis((long) Math.ceil(ITERATIONS * slowest * 1000));
        return (derived.compareTo(MINIMUM) > 0 ? derived : MINIMUM).multipliedBy(patience);
    }

    /**
     * @return how long a rank may stay in one step of its set-up, or after its main loop: {@code --setup-timeout}
     *         when given (a user who knows the set-up is quick may shorten it), else the longer of
     *         {@link #SET_UP_MINIMUM} and {@code --hang-timeout}
     */
    public Duration setUpTimeout() {
        Duration longest = setUp != null ? setUp
                : explicit != null && explicit.compareTo(SET_UP_MINIMUM) > 0 ? explicit : SET_UP_MINIMUM;
        return longest.multipliedBy(patience);
    }

    /**
     * A hung rank.
     *
     * @param rank        the rank
     * @param description what it did, for the log: how long it was silent, in which iteration, the timeout
     */
    public record Hang(int rank, String description) {
    }

    /**
     * The hung rank, when there is one: of the ranks silent for longer than the timeout, the one silent longest (the
     * others, waiting for it in MPI, stopped beating a little after it).
     *
     * @param heartbeats every rank's heartbeat by rank (empty for a rank that has none, or that this watch does not
     *                   watch)
     * @param nowMillis  the current time, epoch milliseconds
     * @return the hung rank, described for the log, or empty
     */
    public Optional<String> hung(List<Optional<HeartbeatSnapshot>> heartbeats, long nowMillis) {
        return hang(heartbeats, nowMillis).map(Hang::description);
    }

    /** As {@link #hung}, with the rank's number. */
    public Optional<Hang> hang(List<Optional<HeartbeatSnapshot>> heartbeats, long nowMillis) {
        return hang(heartbeats, nowMillis, 0);
    }

    /**
     * As {@link #hung}, for a watch that sees every rank of the launch: a rank without a sign of life yet is judged
     * from the launch's start, with the set-up timeout.
     *
     * @param launchedMillis when the launch started, epoch milliseconds; 0: unknown (ranks without a heartbeat are
     *                       not judged)
     */
    public Optional<String> hung(List<Optional<HeartbeatSnapshot>> heartbeats, long nowMillis, long launchedMillis) {
        return hang(heartbeats, nowMillis, launchedMillis).map(Hang::description);
    }

    private Optional<Hang> hang(List<Optional<HeartbeatSnapshot>> heartbeats, long nowMillis, long launchedMillis) {
        Duration timeout = timeout(heartbeats);
        Duration setUpTimeout = setUpTimeout();
        int oldest = -1;
        long oldestSign = Long.MAX_VALUE;
        for (int rank = 0; rank < heartbeats.size(); rank++) {
            Optional<HeartbeatSnapshot> beat = heartbeats.get(rank);
            boolean begun = beat.isPresent() && beat.get().lastSignOfLifeMillis() != 0;
            if (!begun && launchedMillis <= 0 || begun && beat.get().finished()) {
                continue;
            }
            long sign = begun ? beat.get().lastSignOfLifeMillis() : launchedMillis;
            Duration allowed = begun && beat.get().inMainLoop() ? timeout : setUpTimeout;
            if (nowMillis - sign <= allowed.toMillis()) {
                continue;
            }
            if (oldest < 0 || sign < oldestSign) {
                oldest = rank;
                oldestSign = sign;
            }
        }
        if (oldest < 0) {
            return Optional.empty();
        }
        double silent = (nowMillis - oldestSign) / 1000.0;
        Optional<HeartbeatSnapshot> found = heartbeats.get(oldest);
        if (found.isEmpty() || found.get().lastSignOfLifeMillis() == 0) {
            return Optional.of(new Hang(oldest, String.format(Locale.ROOT, "rank %d has given no sign of life %.0f s"
                    + " after the launch began (JVM start or MPI_Init; hang timeout outside the main loop %d s)",
                    oldest, silent, setUpTimeout.toSeconds())));
        }
        HeartbeatSnapshot beat = found.get();
        return Optional.of(new Hang(oldest, beat.inMainLoop()
                ? String.format(Locale.ROOT, "rank %d silent for %.0f s in iteration %d (hang timeout %d s)", oldest,
                        silent, beat.iteration(), timeout.toSeconds())
                : String.format(Locale.ROOT, "rank %d silent for %.0f s %s (hang timeout outside the main loop %d s)",
                        oldest, silent, beat.lastBeatMillis() > 0 ? "after its main loop" : "in its set-up, before"
                                + " its main loop", setUpTimeout.toSeconds())));
    }
}
