package dev.lazarus.mpi.openmpi;

import dev.lazarus.mpi.ElementType;
import dev.lazarus.mpi.spi.Buffers;
import mpi.MPI;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A user buffer range in the form Open MPI's bindings accept: the array itself, a heap slice of it, a direct buffer
 * over a native segment, or a direct staging copy. Staging is needed for non-blocking calls on Java arrays (the
 * bindings take only direct buffers there) and for heap-backed segments.
 *
 * @param mpiBuffer what to hand to the bindings
 * @param staging   the staging buffer, or {@code null} when the bindings work on the user's memory directly
 * @param target    where to copy staged received data back to, or {@code null}
 * @param offset    element offset in {@code target}
 * @param type      element type
 */
record Transfer(Object mpiBuffer, ByteBuffer staging, Object target, int offset, ElementType type) {
    /** The direct buffers over native segment ranges; one rank per JVM with Open MPI, so one set per JVM. */
    private static final DirectViews VIEWS = new DirectViews();

    /** A range that MPI reads. */
    static Transfer toSend(Object buf, int offset, int count, ElementType type, boolean directOnly) {
        Object view = directOnly ? directView(buf, offset, count, type) : view(buf, offset, count, type);
        if (view != null) {
            return new Transfer(view, null, null, offset, type);
        }
        ByteBuffer staging = stage(count, type);
        MemorySegment.copy(Buffers.asSegment(buf), type.bytes(offset), MemorySegment.ofBuffer(staging), 0,
                type.bytes(count));
        return new Transfer(staging, staging, null, offset, type);
    }

    /** A range that MPI writes; call {@link #finish} once it has. */
    static Transfer toReceive(Object buf, int offset, int count, ElementType type, boolean directOnly) {
        Object view = directOnly ? directView(buf, offset, count, type) : view(buf, offset, count, type);
        if (view != null) {
            return new Transfer(view, null, null, offset, type);
        }
        ByteBuffer staging = stage(count, type);
        return new Transfer(staging, staging, buf, offset, type);
    }

    /** A range that MPI reads on one rank and writes on the others (broadcast). */
    static Transfer toUpdate(Object buf, int offset, int count, ElementType type) {
        Transfer sent = toSend(buf, offset, count, type, false);
        return sent.staging == null ? sent : new Transfer(sent.mpiBuffer, sent.staging, buf, offset, type);
    }

    /** Copies {@code count} staged elements back to the user's buffer, if staged. */
    void finish(int count) {
        if (staging != null && target != null && count > 0) {
            MemorySegment.copy(MemorySegment.ofBuffer(staging), 0, Buffers.asSegment(target), type.bytes(offset),
                    type.bytes(count));
        }
    }

    private static ByteBuffer stage(int count, ElementType type) {
        // MPI.newByteBuffer is direct and in native order, as the bindings expect.
        return MPI.newByteBuffer(Math.toIntExact(type.bytes(Math.max(count, 1)))).order(ByteOrder.nativeOrder());
    }

    private static Object directView(Object buf, int offset, int count, ElementType type) {
        if (buf instanceof MemorySegment segment && segment.isNative()) {
            return VIEWS.of(segment, type.bytes(offset), type.bytes(count));
        }
        return null;
    }

    private static Object view(Object buf, int offset, int count, ElementType type) {
        return switch (Buffers.unwrap(buf, type)) {
            case MemorySegment segment -> directView(segment, offset, count, type);
            case double[] a -> offset == 0 ? a : MPI.slice(a, offset);
            case long[] a -> offset == 0 ? a : MPI.slice(a, offset);
            case int[] a -> offset == 0 ? a : MPI.slice(a, offset);
            case byte[] a -> offset == 0 ? a : MPI.slice(a, offset);
            default -> throw new IllegalArgumentException("unsupported buffer type=" + buf.getClass().getName());
        };
    }
}
