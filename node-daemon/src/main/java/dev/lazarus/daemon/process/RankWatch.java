package dev.lazarus.daemon.process;

import dev.lazarus.coordinator.state.JobState;
import dev.lazarus.coordinator.state.StateRecords;
import dev.lazarus.mpi.launch.ExitStatusFiles;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.HeartbeatFile;
import dev.lazarus.mpi.launch.ProcFiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * A node daemon's watch over its node's ranks in the launch running now, which the job's cluster names
 * ({@link JobState#launch()}: the launch's status directory and hang timeout). Every {@link #PERIOD} it reads the
 * heartbeats of the ranks on this node and records each one's last beat in the cluster ({@link JobState#putBeat}).
 * A rank silent for longer than the hang timeout ({@link HangWatch}) is hung if it also stopped first: the other
 * ranks, waiting for it in MPI, stop beating a little after it, and the beats in the cluster (every node's, each
 * settled within a period of its rank's last beat) say which stopped first. The daemon of that rank's node kills it
 * (SIGKILL), so its launcher ends the launch and the coordinator relaunches, and says so in the launch record
 * ({@code hang}), where the coordinator finds it, and as an event.
 */
final class RankWatch implements AutoCloseable {
    /** How often the heartbeats are read. */
    static final Duration PERIOD = Duration.ofSeconds(1);
    /** The most heartbeat files one launch's status directory is read for. */
    static final int MAX_RANKS = 1 << 16;
    private static final Pattern HEARTBEAT = Pattern.compile("rank-(\\d{1,5})\\.heartbeat");

    private final JobState state;
    private final String node;
    private final Consumer<String> log;
    private final Map<Integer, Long> published = new HashMap<>();
    /** The ranks of the watched launch whose heartbeats name another node: not read again (a rank never moves). */
    private final Set<Integer> elsewhere = new HashSet<>();
    private Path elsewhereOf;
    private final Set<String> killed = new HashSet<>();
    private final Set<String> distrusted = new HashSet<>();
    private volatile boolean closed;
    /** The launch whose ranks were last said to be watched. */
    private int watching;
    private Thread thread;

    /**
     * @param state the job's state, through this daemon's member
     * @param node  this node's name, as the ranks' heartbeats give it
     * @param log   where a kill or a status directory that cannot be trusted is said
     */
    RankWatch(JobState state, String node, Consumer<String> log) {
        this.state = state;
        this.node = node;
        this.log = log;
    }

    /** Starts watching on a thread of its own. */
    RankWatch start() {
        thread = Thread.ofPlatform().daemon().name("rank-watch").start(() -> {
            while (!closed) {
                try {
                    watchOnce(System.currentTimeMillis());
                } catch (RuntimeException e) {
                    // The cluster is shutting down, or a member was lost mid-read: the next round tries again.
                }
                try {
                    Thread.sleep(PERIOD.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        return this;
    }

    /** One round: read this node's ranks' heartbeats, record them, kill a hung one. */
    void watchOnce(long nowMillis) {
        Optional<StateRecords.Launch> launch = state.launch();
        if (launch.isEmpty() || launch.get().hang() != null) {
            return;
        }
        Path directory = trusted(launch.get().statusDirectory());
        if (directory == null) {
            return;
        }
        List<Optional<HeartbeatSnapshot>> beats = heartbeats(directory);
        if (watching != launch.get().launch() && beats.stream().anyMatch(Optional::isPresent)) {
            watching = launch.get().launch();
            log.accept("watching ranks " + IntStream.range(0, beats.size()).filter(r -> beats.get(r).isPresent())
                    .boxed().toList() + " of launch " + watching + " (hang timeout " + (launch.get().hangTimeoutMillis()
                    > 0 ? launch.get().hangTimeoutMillis() / 1000.0 + " s" : "derived from their iteration times")
                    + ")");
        }
        for (int rank = 0; rank < beats.size(); rank++) {
            int r = rank;
            beats.get(rank).filter(b -> b.lastSignOfLifeMillis() > 0
                            && published.getOrDefault(r, 0L) != b.lastSignOfLifeMillis())
                    .ifPresent(b -> {
                        state.putBeat(new StateRecords.Beat(r, b.node(), b.lastSignOfLifeMillis(), b.finished()));
                        published.put(r, b.lastSignOfLifeMillis());
                    });
        }
        long timeout = launch.get().hangTimeoutMillis();
        long setUp = launch.get().setUpTimeoutMillis();
        new HangWatch(timeout > 0 ? Duration.ofMillis(timeout) : null, setUp > 0 ? Duration.ofMillis(setUp) : null)
                .hang(beats, nowMillis)
                .filter(hang -> stoppedFirst(hang.rank(),
                        beats.get(hang.rank()).orElseThrow().lastSignOfLifeMillis(), launch.get().startedMillis()))
                .ifPresent(hang -> kill(launch.get(), directory, hang, beats.get(hang.rank()).orElseThrow()));
    }

    /**
     * Whether no rank of the launch elsewhere stopped beating before {@code rank} (a tie goes to the lower rank, so
     * every daemon reaches the same answer), by the beats in the cluster (those of earlier launches are left out). A
     * rank elsewhere that stopped first is the hung one: its node's daemon kills it, and this one's rank is only
     * waiting for it. Two ranks that stopped within one iteration of each other cannot be told apart this way, but
     * killing either ends the hang: every rank of the launch starts again.
     */
    private boolean stoppedFirst(int rank, long lastBeatMillis, long launchStartedMillis) {
        return state.beats().values().stream().filter(b -> b.rank() != rank && !b.finished()
                && b.lastBeatMillis() >= launchStartedMillis).noneMatch(b -> b.lastBeatMillis() < lastBeatMillis
                        || b.lastBeatMillis() == lastBeatMillis && b.rank() < rank);
    }

    /** This node's ranks' heartbeats, by rank (empty for the others' and for ranks without one). */
    private List<Optional<HeartbeatSnapshot>> heartbeats(Path directory) {
        if (!directory.equals(elsewhereOf)) {
            elsewhere.clear();
            elsewhereOf = directory;
        }
        List<Optional<HeartbeatSnapshot>> beats = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "rank-*.heartbeat")) {
            int seen = 0;
            for (Path file : files) {
                Matcher name = HEARTBEAT.matcher(file.getFileName().toString());
                if (!name.matches() || ++seen > MAX_RANKS) {
                    continue;
                }
                int rank = Integer.parseInt(name.group(1));
                if (elsewhere.contains(rank)) {
                    continue;
                }
                Optional<HeartbeatSnapshot> read = HeartbeatFile.read(directory, rank);
                // Remembered only for a named other node: a heartbeat without a node's name is not yet whole.
                if (read.isPresent() && !read.get().node().isEmpty() && !node.equals(read.get().node())) {
                    elsewhere.add(rank);
                }
                Optional<HeartbeatSnapshot> beat = read.filter(b -> node.equals(b.node()));
                while (beats.size() <= rank) {
                    beats.add(Optional.empty());
                }
                beats.set(rank, beat);
            }
        } catch (IOException e) {
            // The launch ended and its directory went with it.
        }
        return beats;
    }

    /**
     * Kills the hung rank, once per launch and rank: the process its heartbeat names, and only if it is one of this
     * launch's ranks (its environment names the launch's status directory), so a heartbeat cannot point the daemon at
     * another process. Then the launch record and an event say so.
     */
    private void kill(StateRecords.Launch launch, Path directory, HangWatch.Hang hang, HeartbeatSnapshot beat) {
        if (!killed.add(launch.statusDirectory() + "#" + hang.rank())) {
            return;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(beat.pid()).filter(p -> isRankOf(p, directory));
        String what = hang.description() + ": the node daemon on " + node + (process.isPresent()
                ? " killed it (process " + beat.pid() + ")" : " found no process of the launch to kill");
        process.ifPresent(ProcessHandle::destroyForcibly);
        log.accept("hang: " + what);
        state.putLaunch(launch.withHang(what));
        state.addEvent(new StateRecords.Event(System.currentTimeMillis(), launch.launch(), "hang", what));
    }

    /** Whether {@code process}'s environment names the launch's status directory. */
    static boolean isRankOf(ProcessHandle process, Path directory) {
        return ProcFiles.environmentHas(process.pid(), ExitStatusFiles.ENV, directory.toString());
    }

    /**
     * The status directory the launch record names, if it can be trusted: an absolute path of a directory (not a
     * link) that this user owns and no one else may enter, as {@code lazarus run} makes it. Else null, said once.
     */
    private Path trusted(String name) {
        try {
            Path directory = Path.of(name);
            PosixFileAttributes attributes = Files.readAttributes(directory, PosixFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            boolean ok = directory.isAbsolute() && attributes.isDirectory()
                    && attributes.owner().getName().equals(System.getProperty("user.name"))
                    && attributes.permissions().stream().noneMatch(p -> p.name().startsWith("GROUP")
                            || p.name().startsWith("OTHERS"));
            if (ok) {
                return directory;
            }
        } catch (NoSuchFileException e) {
            // The launch ended and its directory went with it.
            return null;
        } catch (IOException | RuntimeException e) {
            // said below
        }
        if (distrusted.add(name)) {
            log.accept("not watching the launch's ranks: its status directory " + name + " is not a 0700 directory"
                    + " of this user");
        }
        return null;
    }

    @Override
    public void close() {
        closed = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
