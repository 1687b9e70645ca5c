package dev.lazarus.store.format;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One page-aligned native buffer of {@link ManifestLayout#MAX_CHUNK_BYTES}, allocated on first use and reused for
 * every chunk: heap memory has no address a file channel or the hash can use, so it passes through here.
 */
final class StagingBuffer implements AutoCloseable {
    private final Arena arena = Arena.ofConfined();
    private MemorySegment buffer;

    /** @return the first {@code length} bytes of the buffer */
    MemorySegment slice(long length) {
        if (buffer == null) {
            buffer = arena.allocate(ManifestLayout.MAX_CHUNK_BYTES, 4096);
        }
        return buffer.asSlice(0, length);
    }

    @Override
    public void close() {
        arena.close();
    }
}
