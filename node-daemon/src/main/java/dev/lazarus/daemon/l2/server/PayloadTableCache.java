package dev.lazarus.daemon.l2.server;

import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.NodePayload;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The encoded payload tables of the last few versions. Computing a table reads the whole payload for its CRC32Cs, and
 * every member of the set asks for it when encoding, so it is computed once per version and reused while the files'
 * {@link NodePayload#fingerprint fingerprint} (sizes, modification times) stays the same. Concurrent requests for a
 * table wait for the one computing it.
 */
public final class PayloadTableCache {
    private static final int VERSIONS = 8;

    private final CheckpointDirectory directory;
    private final Map<Long, Cached> entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Cached> eldest) {
            return size() > VERSIONS;
        }
    };

    private record Cached(long[] fingerprint, byte[] table) {
    }

    public PayloadTableCache(CheckpointDirectory directory) {
        this.directory = directory;
    }

    /**
     * @return the encoded payload table of {@code version} on this node
     * @throws NoSuchFileException if the node has no checkpoint of it
     */
    public synchronized byte[] table(long version) throws IOException {
        long[] fingerprint = NodePayload.fingerprint(directory, version);
        if (fingerprint.length == 0) {
            throw new NoSuchFileException("no checkpoint of version=" + version + " on this node");
        }
        Cached cached = entries.get(version);
        if (cached != null && Arrays.equals(cached.fingerprint, fingerprint)) {
            return cached.table;
        }
        try (NodePayload payload = NodePayload.open(directory, version)) {
            byte[] table = payload.table().encode();
            entries.put(version, new Cached(fingerprint, table));
            return table;
        }
    }
}
