package dev.lazarus.coordinator.state;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A job's recovery state as the state directory holds it, read without a cluster: what {@code lazarus status} shows
 * and what a new {@code lazarus run} of the job starts from. An entry that cannot be read is left out and its reason
 * kept in {@link #skipped}.
 *
 * @param job     the job record, if any
 * @param ranks   the ranks' records, by rank
 * @param catalog the catalog, by level then version
 * @param events  the events, oldest first
 * @param stats   the statistics, if any
 * @param skipped "map/key: reason" of each entry left out
 */
public record StateSnapshot(Optional<StateRecords.Job> job, List<StateRecords.Rank> ranks,
                            List<StateRecords.Version> catalog, List<StateRecords.Event> events,
                            Optional<StateRecords.Stats> stats, List<String> skipped) {

    /** Reads every map of the job's state directory. */
    public static StateSnapshot read(StateFiles files) throws IOException {
        List<String> skipped = new ArrayList<>();
        Optional<StateRecords.Job> job = one(files, StateMaps.JOB, StateRecords.Job.class, skipped);
        List<StateRecords.Rank> ranks = new ArrayList<>(all(files, StateMaps.RANKS, StateRecords.Rank.class,
                skipped));
        ranks.sort(Comparator.comparingInt(StateRecords.Rank::rank));
        List<StateRecords.Version> catalog = new ArrayList<>(all(files, StateMaps.CATALOG,
                StateRecords.Version.class, skipped));
        catalog.sort(Comparator.comparing(StateRecords.Version::level)
                .thenComparingLong(StateRecords.Version::version));
        List<StateRecords.Event> events = all(files, StateMaps.EVENTS, StateRecords.Event.class, skipped);
        Optional<StateRecords.Stats> stats = one(files, StateMaps.STATS, StateRecords.Stats.class, skipped);
        return new StateSnapshot(job, List.copyOf(ranks), List.copyOf(catalog), events, stats, List.copyOf(skipped));
    }

    private static <T> Optional<T> one(StateFiles files, String map, Class<T> type, List<String> skipped)
            throws IOException {
        List<T> found = all(files, map, type, skipped);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    /** Every readable entry of {@code map}, in key order (events: the order they happened). */
    private static <T> List<T> all(StateFiles files, String map, Class<T> type, List<String> skipped)
            throws IOException {
        List<T> records = new ArrayList<>();
        for (String key : files.keys(map)) {
            try {
                Optional<String> text = files.get(map, key);
                if (text.isPresent()) {
                    records.add(StateJson.read(text.get(), type));
                }
            } catch (IOException | IllegalArgumentException e) {
                skipped.add(map + "/" + key + ": " + e.getMessage());
            }
        }
        return records;
    }
}
