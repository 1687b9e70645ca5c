package dev.lazarus.recovery.crash;

/**
 * A data object's bytes in the heap, for per-object inconsistent rates.
 *
 * @param name   the object's name (e.g. {@code u})
 * @param offset heap offset of its first byte
 * @param length its size in bytes
 */
public record ObjectRange(String name, long offset, long length) {
    /** @throws IllegalArgumentException for a blank name, a negative offset or a non-positive length */
    public ObjectRange {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("object range needs a name (offset=" + offset + ")");
        }
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("object '" + name + "': offset=" + offset + " length=" + length
                    + " must be a non-negative offset and a positive length");
        }
    }

    /** Heap offset just past the object. */
    public long end() {
        return offset + length;
    }
}
