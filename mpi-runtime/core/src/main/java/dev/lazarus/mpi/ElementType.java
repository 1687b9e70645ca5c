package dev.lazarus.mpi;

import java.lang.foreign.MemorySegment;

/**
 * The element types a {@link Comm} moves. Offsets and counts in every {@code Comm} call are in elements of this type;
 * receive hooks are told byte ranges ({@link #bytes(int)}).
 */
public enum ElementType {
    BYTE(Byte.BYTES),
    INT(Integer.BYTES),
    LONG(Long.BYTES),
    DOUBLE(Double.BYTES);

    private final int size;

    ElementType(int size) {
        this.size = size;
    }

    /** Size of one element in bytes. */
    public int size() {
        return size;
    }

    /** Byte length of {@code count} elements. */
    public long bytes(int count) {
        return (long) count * size;
    }

    /**
     * The element type of a Java array buffer.
     *
     * @throws IllegalArgumentException for a {@link MemorySegment} (it has no element type: pass one explicitly)
     *         or for anything that is not a supported buffer
     */
    public static ElementType of(Object buffer) {
        return switch (buffer) {
            case double[] ignored -> DOUBLE;
            case long[] ignored -> LONG;
            case int[] ignored -> INT;
            case byte[] ignored -> BYTE;
            case MemorySegment ignored -> throw new IllegalArgumentException(
                    "a MemorySegment buffer needs an explicit ElementType");
            case null -> throw new IllegalArgumentException("buffer=null");
            default -> throw new IllegalArgumentException(
                    "unsupported buffer type=" + buffer.getClass().getTypeName()
                            + " (expected double[], long[], int[], byte[] or MemorySegment)");
        };
    }

    /** Number of elements of this type that {@code buffer} holds. */
    public long capacity(Object buffer) {
        return switch (buffer) {
            case MemorySegment segment -> segment.byteSize() / size;
            case double[] a when this == DOUBLE -> a.length;
            case long[] a when this == LONG -> a.length;
            case int[] a when this == INT -> a.length;
            case byte[] a when this == BYTE -> a.length;
            case null -> throw new IllegalArgumentException("buffer=null");
            default -> throw new IllegalArgumentException(
                    "buffer type=" + buffer.getClass().getTypeName() + " does not hold elements of type=" + this);
        };
    }
}
