package dev.lazarus.easycrash.heap;

import static dev.lazarus.easycrash.heap.HeapLayout.BOOKMARK_CHECKED_BYTES;
import static dev.lazarus.easycrash.heap.HeapLayout.BOOKMARK_CRC_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.BOOKMARK_ITERATION_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.BOOKMARK_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.BOOKMARK_SEQUENCE_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.BOOKMARK_SLOTS;
import static dev.lazarus.easycrash.heap.HeapLayout.BOOKMARK_SLOT_BYTES;
import static dev.lazarus.easycrash.heap.HeapLayout.CACHE_LINE;
import static dev.lazarus.easycrash.heap.HeapLayout.CAPACITY_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.DATA_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.HEADER_CHECKED_BYTES;
import static dev.lazarus.easycrash.heap.HeapLayout.HEADER_CRC_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.JOB_HASH_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.MAGIC;
import static dev.lazarus.easycrash.heap.HeapLayout.MAGIC_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.MARKER_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.RANK_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.TOP_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.VERSION;
import static dev.lazarus.easycrash.heap.HeapLayout.VERSION_OFFSET;
import static dev.lazarus.easycrash.heap.HeapLayout.WORLD_SIZE_OFFSET;

import dev.lazarus.easycrash.persist.CacheLineWriter;
import dev.lazarus.mpi.memory.RawMemory;
import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * A mapped heap file (see {@link HeapLayout}): creation, validation of an existing file, the bookmark, the
 * persistence marker and bump allocation. Header, bookmark and marker updates are written back and drained at once,
 * so what they say is durable before the call returns.
 */
public final class HeapFile implements AutoCloseable {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    private final Path path;
    private final Arena arena;
    private final MemorySegment segment;
    private final CacheLineWriter writer;
    private final boolean syncMapped;
    /** The slot this process last wrote the bookmark to, or null before its first write. */
    private BookmarkSlot lastWritten;
    /**
     * The checked bytes of a bookmark slot as they are stored (the reserved four, never written, stay zero), for its
     * checksum; both reused by every bookmark.
     */
    private final byte[] bookmarkImage = new byte[(int) BOOKMARK_CHECKED_BYTES];
    private static final int IMAGE_ITERATION = (int) (BOOKMARK_ITERATION_OFFSET - BOOKMARK_SEQUENCE_OFFSET);
    private final CRC32C bookmarkCrc = new CRC32C();
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private HeapFile(Path path, Arena arena, MemorySegment segment, CacheLineWriter writer, boolean syncMapped) {
        this.path = path;
        this.arena = arena;
        this.segment = segment;
        this.writer = writer;
        this.syncMapped = syncMapped;
    }

    /** Identity a heap file must carry to be this rank's. */
    public record Identity(String jobId, int rank, int worldSize) {
    }

    /**
     * Creates (or replaces) a heap file of {@code capacity} bytes, readable by the owner only, with all its space
     * reserved, and writes a fresh header. The mapping is MAP_SYNC when the file system supports it (DAX pmem), else
     * a plain shared mapping.
     *
     * @throws SecureFiles.NoRoomException if the file system cannot hold {@code capacity} bytes; no file is left
     * @throws dev.lazarus.store.files.UnsafePathException if a symbolic link sits at {@code path}
     */
    public static HeapFile create(Path path, Identity identity, long capacity, CacheLineWriterFactory writers)
            throws IOException {
        if (capacity < DATA_OFFSET + HeapLayout.PAGE) {
            throw new IllegalArgumentException("heap capacity=" + capacity + " must be at least "
                    + (DATA_OFFSET + HeapLayout.PAGE) + " bytes");
        }
        SecureFiles.refuseLink(path);
        Files.deleteIfExists(path);
        // Reserved now, so that no store into the mapping can fault (SIGBUS) for want of space later.
        SecureFiles.createReserved(path, capacity);
        HeapFile heap = map(path, capacity, writers);
        MemorySegment s = heap.segment;
        s.asSlice(0, DATA_OFFSET).fill((byte) 0);
        s.set(LONG, MAGIC_OFFSET, MAGIC);
        s.set(INT, VERSION_OFFSET, VERSION);
        s.set(INT, WORLD_SIZE_OFFSET, identity.worldSize());
        s.set(INT, RANK_OFFSET, identity.rank());
        s.set(LONG, JOB_HASH_OFFSET, HeapLayout.jobHash(identity.jobId()));
        s.set(LONG, CAPACITY_OFFSET, capacity);
        heap.writeTop(DATA_OFFSET);
        return heap;
    }

    /**
     * Maps an existing heap file and checks it is intact and {@code identity}'s.
     *
     * @return the heap, or the reason it cannot be used (one line)
     * @throws dev.lazarus.store.files.UnsafePathException if a symbolic link sits at {@code path}
     */
    public static Validated open(Path path, Identity identity, CacheLineWriterFactory writers) throws IOException {
        SecureFiles.refuseLink(path);
        if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            return Validated.unusable("heap file " + path + " is missing");
        }
        long size = Files.size(path);
        if (size < DATA_OFFSET) {
            return Validated.unusable("heap file " + path + " is truncated: " + size + " bytes");
        }
        HeapFile heap = map(path, size, writers);
        Optional<String> problem = heap.checkHeader(identity, size);
        if (problem.isPresent()) {
            heap.close();
            return Validated.unusable(problem.get());
        }
        return new Validated(heap, null);
    }

    /** A heap that passed validation, or the reason it did not. */
    public record Validated(HeapFile heap, String problem) {
        static Validated unusable(String problem) {
            return new Validated(null, problem);
        }
    }

    private static HeapFile map(Path path, long capacity, CacheLineWriterFactory writers) throws IOException {
        Arena arena = Arena.ofShared();
        try (FileChannel channel = SecureFiles.open(path, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS))) {
            MemorySegment segment;
            boolean sync;
            try {
                segment = channel.map(jdk.nio.mapmode.ExtendedMapMode.READ_WRITE_SYNC, 0, capacity, arena);
                sync = true;
            } catch (IOException | UnsupportedOperationException notDax) {
                // Not a DAX file system (e.g. /dev/shm as emulated NVM): a shared mapping, flushed by libpmem.
                segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, capacity, arena);
                sync = false;
            }
            return new HeapFile(path, arena, segment, writers.create(sync), sync);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private Optional<String> checkHeader(Identity identity, long fileSize) {
        MemorySegment s = segment;
        if (s.get(LONG, MAGIC_OFFSET) != MAGIC) {
            return Optional.of("heap file " + path + " is not a Lazarus heap (bad magic)");
        }
        if (s.get(LONG, HEADER_CRC_OFFSET) != crc(0, HEADER_CHECKED_BYTES)) {
            return Optional.of("heap file " + path + " has a corrupt header (checksum mismatch)");
        }
        if (s.get(INT, VERSION_OFFSET) != VERSION) {
            return Optional.of("heap file " + path + " has layout version=" + s.get(INT, VERSION_OFFSET)
                    + ", expected " + VERSION);
        }
        if (s.get(LONG, JOB_HASH_OFFSET) != HeapLayout.jobHash(identity.jobId())) {
            return Optional.of("heap file " + path + " belongs to another job (job id differs from "
                    + identity.jobId() + ")");
        }
        if (s.get(INT, RANK_OFFSET) != identity.rank()) {
            return Optional.of("heap file " + path + " belongs to rank " + s.get(INT, RANK_OFFSET));
        }
        if (s.get(INT, WORLD_SIZE_OFFSET) != identity.worldSize()) {
            return Optional.of("heap file " + path + " was written by a job of " + s.get(INT, WORLD_SIZE_OFFSET)
                    + " ranks, this job has " + identity.worldSize());
        }
        long capacity = s.get(LONG, CAPACITY_OFFSET);
        if (capacity != fileSize) {
            return Optional.of("heap file " + path + " is truncated: " + fileSize + " of " + capacity + " bytes");
        }
        long top = top();
        if (top < DATA_OFFSET || top > capacity) {
            return Optional.of("heap file " + path + " has allocation top=" + top + " outside [" + DATA_OFFSET
                    + ", " + capacity + "]");
        }
        return Optional.empty();
    }

    public MemorySegment segment() {
        return segment;
    }

    public Path path() {
        return path;
    }

    public CacheLineWriter writer() {
        return writer;
    }

    public boolean syncMapped() {
        return syncMapped;
    }

    public long capacity() {
        return segment.byteSize();
    }

    /** First free byte. */
    public long top() {
        return segment.get(LONG, TOP_OFFSET);
    }

    /**
     * Reserves {@code bytes}, page aligned, and returns the offset.
     *
     * @throws IllegalStateException when the heap is full, with its size and how much was asked for
     */
    public long allocate(long bytes) {
        long offset = top();
        long end = HeapLayout.pageAlign(offset + bytes);
        if (end > capacity()) {
            throw new IllegalStateException("persistent heap " + path + " is full: capacity=" + capacity()
                    + " used=" + offset + " requested=" + bytes + " (raise lazarus.nvm.heap.size)");
        }
        writeTop(end);
        return offset;
    }

    private void writeTop(long top) {
        segment.set(LONG, TOP_OFFSET, top);
        segment.set(LONG, HEADER_CRC_OFFSET, crc(0, HEADER_CHECKED_BYTES));
        persistLine(0);
    }

    /**
     * The newest whole bookmark, empty if none was written, or a description of a torn bookmark when no slot is
     * whole. A slot torn by a kill during its write leaves the bookmark before it, the previous iteration: the heap
     * then holds that iteration's updates, as after a crash at its end.
     */
    public BookmarkState bookmark() {
        BookmarkSlot newest = newestSlot();
        if (newest != null) {
            return new BookmarkState(OptionalInt.of(newest.iteration()), null);
        }
        for (int slot = 0; slot < BOOKMARK_SLOTS; slot++) {
            long base = slotOffset(slot);
            long sequence = segment.get(LONG, base + BOOKMARK_SEQUENCE_OFFSET);
            if (sequence != 0 || segment.get(LONG, base + BOOKMARK_CRC_OFFSET) != 0) {
                return new BookmarkState(OptionalInt.empty(), "bookmark is torn (checksum mismatch at sequence="
                        + sequence + ")");
            }
        }
        return new BookmarkState(OptionalInt.empty(), null);
    }

    /**
     * @param iteration the bookmarked iteration, if any
     * @param torn      why the bookmark cannot be trusted, or {@code null}
     */
    public record BookmarkState(OptionalInt iteration, String torn) {
    }

    /**
     * Durably records {@code iteration} as the main-loop iteration in progress.
     *
     * <p>Called once per iteration from the first, so it must be cheap before the JIT has compiled it (a JVM that
     * compiles with C2 alone interprets it until its 10,000th call): plain stores at the slot's address
     * ({@link RawMemory}), a reused {@link CRC32C} over a reused image of those bytes, and the writer's
     * {@code persist} of the line, which is the JDK's write-back ({@code persist.JdkWriteBack}), not a downcall.
     * Through {@code MemorySegment.set}, a fresh image per call and two downcalls it took 4 to 20 us in a run's first
     * thousands of iterations and 31 us on average in a 2-rank solver.HEAT class A run (74 ms of 0.67 s); 0.6 us once
     * compiled.
     */
    public void writeBookmark(int iteration) {
        // Only this process writes the bookmark: after its first write it knows the newest slot without reading.
        BookmarkSlot newest = lastWritten != null ? lastWritten : newestSlot();
        int slot = newest == null ? 0 : 1 - newest.slot();
        long sequence = newest == null ? 1 : newest.sequence() + 1;
        long at = segment.address() + slotOffset(slot);
        RawMemory.putLong(at + BOOKMARK_SEQUENCE_OFFSET, sequence);
        RawMemory.putInt(at + BOOKMARK_ITERATION_OFFSET, iteration);
        RawMemory.putInt(at + BOOKMARK_ITERATION_OFFSET + Integer.BYTES, 0); // reserved
        // The checksum is stored last: a kill before it leaves this slot torn (its old checksum no longer matches),
        // and the other slot holds the previous bookmark. It is computed over an image of the bytes just stored: a
        // view of the mapping (a ByteBuffer) acquires and releases its memory session through VarHandles on every
        // update, which cost HEAT class A on two ranks 4% while the bookmark runs interpreted.
        storeImage(0, sequence, Long.BYTES);
        storeImage(IMAGE_ITERATION, iteration, Integer.BYTES); // the reserved bytes after it stay zero
        bookmarkCrc.reset();
        bookmarkCrc.update(bookmarkImage, 0, bookmarkImage.length);
        RawMemory.putLong(at + BOOKMARK_CRC_OFFSET, bookmarkCrc.getValue());
        persistLine(BOOKMARK_OFFSET);
        lastWritten = new BookmarkSlot(slot, sequence, iteration);
    }

    /** Stores the low {@code bytes} bytes of {@code value} at {@code at} of the bookmark image, in native order. */
    private void storeImage(int at, long value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            int shift = 8 * (LITTLE_ENDIAN ? i : bytes - 1 - i);
            bookmarkImage[at + i] = (byte) (value >>> shift);
        }
    }

    /** The whole slot with the highest sequence, or {@code null} when no slot is whole. */
    private BookmarkSlot newestSlot() {
        BookmarkSlot newest = null;
        for (int slot = 0; slot < BOOKMARK_SLOTS; slot++) {
            long base = slotOffset(slot);
            long sequence = segment.get(LONG, base + BOOKMARK_SEQUENCE_OFFSET);
            boolean whole = sequence != 0
                    && segment.get(LONG, base + BOOKMARK_CRC_OFFSET) == crc(base, BOOKMARK_CHECKED_BYTES);
            if (whole && (newest == null || Long.compareUnsigned(sequence, newest.sequence()) > 0)) {
                newest = new BookmarkSlot(slot, sequence, segment.get(INT, base + BOOKMARK_ITERATION_OFFSET));
            }
        }
        return newest;
    }

    private static long slotOffset(int slot) {
        return BOOKMARK_OFFSET + slot * BOOKMARK_SLOT_BYTES;
    }

    private record BookmarkSlot(int slot, long sequence, int iteration) {
    }

    /** The in-flight persistence marker: 0 when none, else the region + 1 that was persisting. */
    public long marker() {
        return segment.get(LONG, MARKER_OFFSET);
    }

    /** Durably sets the persistence marker. */
    public void writeMarker(long value) {
        RawMemory.putLong(segment.address() + MARKER_OFFSET, value); // as cheap as the bookmark: see writeBookmark
        persistLine(MARKER_OFFSET);
    }

    private void persistLine(long offset) {
        writer.persist(segment, offset, CACHE_LINE);
    }

    private long crc(long offset, long length) {
        return crc(segment.asSlice(offset, length));
    }

    private static long crc(MemorySegment bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.asByteBuffer());
        return crc.getValue();
    }

    @Override
    public void close() {
        arena.close();
    }

    /** Chooses the cache-line writer for a mapping. */
    @FunctionalInterface
    public interface CacheLineWriterFactory {
        CacheLineWriter create(boolean syncMapped);
    }
}
