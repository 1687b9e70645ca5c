package dev.lazarus.coordinator.state;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/** The names of the state's maps and how each record is keyed, the same in Hazelcast and on disk. */
public final class StateMaps {
    public static final String JOB = "job";
    public static final String RANKS = "ranks";
    public static final String CATALOG = "catalog";
    public static final String EVENTS = "events";
    public static final String STATS = "stats";
    public static final String LAUNCH = "launch";
    /** The ranks' live heartbeats ({@link StateRecords.Beat}): in the cluster only, not in {@link #ALL}. */
    public static final String BEATS = "beats";
    /** Every map. */
    public static final List<String> ALL = List.of(JOB, RANKS, CATALOG, EVENTS, STATS, LAUNCH);
    /** The key of the one record of {@link #JOB}, {@link #STATS} and {@link #LAUNCH}. */
    public static final String THE = "the";

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private StateMaps() {
    }

    /** @return the record type of {@code map}'s entries */
    static Class<?> recordType(String map) {
        return switch (map) {
            case JOB -> StateRecords.Job.class;
            case RANKS -> StateRecords.Rank.class;
            case CATALOG -> StateRecords.Version.class;
            case EVENTS -> StateRecords.Event.class;
            case STATS -> StateRecords.Stats.class;
            case LAUNCH -> StateRecords.Launch.class;
            default -> throw new IllegalArgumentException("no state map " + map);
        };
    }

    public static String rank(int rank) {
        return "rank-" + rank;
    }

    static String version(String level, long version) {
        return level + "-v" + version;
    }

    /**
     * An event's key: its time first, so that keys sort as events happened, then who wrote it and a sequence, so
     * that two events of one millisecond never share a key.
     */
    static String event(long timeMillis, String writer) {
        return String.format(Locale.ROOT, "%013d-%s-%06d", timeMillis, writer,
                Math.floorMod(SEQUENCE.getAndIncrement(), 1_000_000));
    }
}
