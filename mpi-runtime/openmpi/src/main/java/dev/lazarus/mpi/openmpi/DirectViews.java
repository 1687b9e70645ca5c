package dev.lazarus.mpi.openmpi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The direct buffers over native segment ranges that Open MPI's bindings take, kept for the ranges a rank passes
 * again and again (a halo exchange sends and receives the same four rows every iteration).
 *
 * <p>Why: a rank JVM that compiles with C2 alone interprets a method until its 10,000th call, so in a main loop of a
 * few thousand iterations {@code segment.asSlice(..).asByteBuffer()} runs interpreted for each transfer (some forty
 * calls: a new segment, a session check, a {@code MappedByteBuffer}). A hit here is a short scan of {@link #SLOTS}
 * entries. An entry holds the segment it was made from and is used only for that same segment object and range, and
 * only while its scope is alive, so a closed arena's memory is never handed to MPI.
 *
 * <p>Entries are immutable and a slot is replaced whole, so a rank's other threads can at worst miss.
 */
final class DirectViews {
    /** How many ranges are kept: a 3-D halo exchange has six faces each way. */
    static final int SLOTS = 16;

    private final View[] views = new View[SLOTS];
    private int next;

    private record View(MemorySegment segment, long offset, long length, ByteBuffer buffer) {
    }

    /**
     * A direct buffer over {@code [offset, offset + length)} of the native {@code segment}.
     *
     * @throws IndexOutOfBoundsException if the range is not within the segment
     * @throws IllegalStateException     if the segment's scope is closed
     */
    ByteBuffer of(MemorySegment segment, long offset, long length) {
        // Neither asSlice nor asByteBuffer checks the scope; MPI reads and writes the address whatever it maps.
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the segment's arena is closed: its memory cannot go to MPI");
        }
        for (View view : views) {
            if (view != null && view.segment == segment && view.offset == offset && view.length == length) {
                return view.buffer;
            }
        }
        ByteBuffer buffer = segment.asSlice(offset, length).asByteBuffer();
        views[next] = new View(segment, offset, length, buffer);
        next = (next + 1) % SLOTS;
        return buffer;
    }
}
