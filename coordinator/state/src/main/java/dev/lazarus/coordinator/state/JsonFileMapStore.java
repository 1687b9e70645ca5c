package dev.lazarus.coordinator.state;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import com.hazelcast.core.HazelcastJsonValue;
import com.hazelcast.map.MapStore;

/**
 * Keeps one of the coordinator's Hazelcast maps in {@link StateFiles}, written through: an entry is on disk when the
 * put returns. Loads every entry when the map is first used, so a new cluster (a requeued job) starts from what the
 * last one stored. A file that is not a record of the map's type, or too large, is skipped with one line saying why;
 * it is never loaded and never deleted.
 */
final class JsonFileMapStore implements MapStore<String, HazelcastJsonValue> {
    private final StateFiles files;
    private final String map;
    private final PrintStream err;

    JsonFileMapStore(StateFiles files, String map, PrintStream err) {
        this.files = files;
        this.map = map;
        this.err = err;
    }

    @Override
    public void store(String key, HazelcastJsonValue value) {
        try {
            files.put(map, key, value.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("state " + map + "/" + key + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void storeAll(Map<String, HazelcastJsonValue> entries) {
        entries.forEach(this::store);
    }

    @Override
    public void delete(String key) {
        try {
            files.delete(map, key);
        } catch (IOException e) {
            throw new UncheckedIOException("state " + map + "/" + key + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void deleteAll(Collection<String> keys) {
        keys.forEach(this::delete);
    }

    @Override
    public HazelcastJsonValue load(String key) {
        return read(key).orElse(null);
    }

    @Override
    public Map<String, HazelcastJsonValue> loadAll(Collection<String> keys) {
        Map<String, HazelcastJsonValue> loaded = new HashMap<>();
        for (String key : keys) {
            read(key).ifPresent(value -> loaded.put(key, value));
        }
        return loaded;
    }

    @Override
    public Iterable<String> loadAllKeys() {
        try {
            return files.keys(map);
        } catch (IOException e) {
            err.println("lazarus: state " + map + " not loaded: " + e.getMessage());
            return java.util.List.of();
        }
    }

    private Optional<HazelcastJsonValue> read(String key) {
        try {
            Optional<String> text = files.get(map, key);
            if (text.isPresent() && !StateJson.isObject(text.get())) {
                err.println("lazarus: state " + map + "/" + key + " skipped: not a JSON object");
                return Optional.empty();
            }
            // Only a record of the map's type gets in: the maps' readers can then trust every entry.
            text.ifPresent(json -> StateJson.read(json, StateMaps.recordType(map)));
            return text.map(HazelcastJsonValue::new);
        } catch (IOException | RuntimeException e) {
            err.println("lazarus: state " + map + "/" + key + " skipped: " + e.getMessage());
            return Optional.empty();
        }
    }
}
