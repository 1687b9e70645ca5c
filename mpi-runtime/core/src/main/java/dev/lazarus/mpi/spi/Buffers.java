package dev.lazarus.mpi.spi;

import dev.lazarus.mpi.ElementType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Copies between the buffer kinds a {@link dev.lazarus.mpi.Comm} accepts. Used on cold paths only. */
public final class Buffers {
    private Buffers() {
    }

    /** A new Java array of {@code type} holding {@code count} elements. */
    public static Object newArray(ElementType type, int count) {
        return switch (type) {
            case BYTE -> new byte[count];
            case INT -> new int[count];
            case LONG -> new long[count];
            case DOUBLE -> new double[count];
        };
    }

    /** A heap segment viewing a Java array (of any supported type) or the segment itself. */
    public static MemorySegment asSegment(Object buffer) {
        return switch (buffer) {
            case MemorySegment segment -> segment;
            case double[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case byte[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("unsupported buffer type=" + buffer.getClass().getName());
        };
    }

    /**
     * The Java array that a heap segment views whole, when its elements are of {@code type} (the segment of a plain
     * object, EasyCrash off), so that it goes to MPI as the plain program's array would, without a staging copy; any
     * other buffer unchanged.
     */
    public static Object unwrap(Object buffer, ElementType type) {
        if (buffer instanceof MemorySegment segment && !segment.isNative() && segment.address() == 0) {
            Object base = segment.heapBase().orElse(null);
            boolean whole = switch (base) {
                case double[] a -> type == ElementType.DOUBLE && 8L * a.length == segment.byteSize();
                case long[] a -> type == ElementType.LONG && 8L * a.length == segment.byteSize();
                case int[] a -> type == ElementType.INT && 4L * a.length == segment.byteSize();
                case byte[] a -> type == ElementType.BYTE && a.length == segment.byteSize();
                case null, default -> false;
            };
            return whole ? base : buffer;
        }
        return buffer;
    }

    /**
     * Copies {@code count} elements from {@code src[srcOffset..]} to {@code dst[dstOffset..]} (elements). Two Java
     * arrays are copied by {@code System.arraycopy}, without wrapping each in a segment first.
     */
    public static void copy(Object src, int srcOffset, Object dst, int dstOffset, int count, ElementType type) {
        if (src instanceof MemorySegment || dst instanceof MemorySegment) {
            MemorySegment.copy(asSegment(src), type.bytes(srcOffset), asSegment(dst), type.bytes(dstOffset),
                    type.bytes(count));
        } else {
            System.arraycopy(src, srcOffset, dst, dstOffset, count);
        }
    }

    /** A new Java array holding a copy of {@code count} elements of {@code src} from {@code offset}. */
    public static Object copyOf(Object src, int offset, int count, ElementType type) {
        Object copy = newArray(type, count);
        copy(src, offset, copy, 0, count, type);
        return copy;
    }

    /** The number of elements a v-layout spans: the largest displacement plus its count. */
    public static int extent(int[] counts, int[] displs) {
        int extent = 0;
        for (int i = 0; i < counts.length; i++) {
            extent = Math.max(extent, displs[i] + counts[i]);
        }
        return extent;
    }

    /** The value layout matching {@code type}, in native byte order. */
    public static ValueLayout layout(ElementType type) {
        return switch (type) {
            case BYTE -> ValueLayout.JAVA_BYTE;
            case INT -> ValueLayout.JAVA_INT;
            case LONG -> ValueLayout.JAVA_LONG;
            case DOUBLE -> ValueLayout.JAVA_DOUBLE;
        };
    }
}
