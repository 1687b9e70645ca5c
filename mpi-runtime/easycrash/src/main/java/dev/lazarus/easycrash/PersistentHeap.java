package dev.lazarus.easycrash;

import dev.lazarus.easycrash.heap.HeapFile;
import dev.lazarus.easycrash.heap.HeapLayout;
import dev.lazarus.easycrash.heap.NvmAttemptFile;
import dev.lazarus.easycrash.heap.NvmDirectoryFullException;
import dev.lazarus.easycrash.heap.ObjectDescriptor;
import dev.lazarus.easycrash.heap.ObjectDirectory;
import dev.lazarus.easycrash.heap.RankLock;
import dev.lazarus.easycrash.persist.CacheLineWriter;
import dev.lazarus.easycrash.persist.PmemCacheLineWriter;
import dev.lazarus.easycrash.persist.SyncMappingCacheLineWriter;
import dev.lazarus.easycrash.trace.AccessTracer;
import dev.lazarus.mpi.ElementType;
import dev.lazarus.store.JobId;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.files.UnsafePathException;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One rank's persistent heap: named data objects in a memory-mapped file in the NVM directory
 * ({@code <dir>/<job>/rank-<r>.heap}) with their directory beside it ({@code rank-<r>.objects}), created on the first
 * run and re-attached by name after a crash (EasyCrash's {@code easycrash_mem_alloc}).
 *
 * <p>{@link #open} never hands out garbage: a heap that is missing, truncated, foreign, from another rank count or
 * application, whose directory is corrupt, whose bookmark is torn, or that crashed in the middle of a persistence
 * operation is moved aside (suffix {@code .unusable}) and replaced by a fresh one, and {@link #recovery()} says why.
 */
public final class PersistentHeap implements AutoCloseable {
    private final HeapFile file;
    private final ObjectDirectory directory;
    private final RecoveryState recovery;
    /** {@code null} when untraced: accessors then skip the call, which keeps untraced runs in a campaign JVM fast. */
    private final AccessTracer tracer;
    /** In attach order, so that everything iterating the objects sees the same order on every rank and launch. */
    private final Map<String, DataObject> attached = new LinkedHashMap<>();
    private final Path heapPath;
    private final Path directoryPath;
    private final Path attemptPath;
    private RankLock lock;
    private boolean closed;

    private PersistentHeap(HeapFile file, ObjectDirectory directory, RecoveryState recovery, AccessTracer tracer,
                           Config config) {
        this.heapPath = config.heapPath();
        this.directoryPath = config.directoryPath();
        this.attemptPath = config.attemptPath();
        this.file = file;
        this.directory = directory;
        this.recovery = recovery;
        this.tracer = tracer;
    }

    /**
     * Where and whose the heap is.
     *
     * @param directory the node's NVM directory (a DAX mount, or /dev/shm as emulated NVM)
     * @param jobId     the job's id, as {@link JobId} checks it
     * @param rank      this rank
     * @param worldSize the job's rank count
     * @param capacity  heap file size in bytes
     * @param signature the application and arguments; a heap written by another signature is not reused
     * @param tracer    the crash emulator's tracer (campaign JVMs), or {@code null}
     */
    public record Config(Path directory, String jobId, int rank, int worldSize, long capacity, String signature,
                         AccessTracer tracer) {
        public Config {
            JobId.check(jobId);
            if (rank < 0 || worldSize < 1 || rank >= worldSize) {
                throw new IllegalArgumentException("rank=" + rank + " worldSize=" + worldSize + " is not a rank");
            }
        }

        Path jobDirectory() {
            return directory.resolve(jobId);
        }

        Path heapPath() {
            return jobDirectory().resolve("rank-" + rank + ".heap");
        }

        Path directoryPath() {
            return jobDirectory().resolve("rank-" + rank + ".objects");
        }

        Path lockPath() {
            return jobDirectory().resolve("rank-" + rank + ".lock");
        }

        Path attemptPath() {
            return jobDirectory().resolve("rank-" + rank + ".attempt");
        }
    }

    /** A way of attaching a heap once this rank's lock is held. */
    private interface LockedOpen {
        PersistentHeap open() throws IOException;
    }

    /**
     * Attaches this rank's heap, validating whatever an earlier run left.
     *
     * @throws RankLock.NvmStateInUseException when a live rank of an earlier launch still holds this rank's state;
     *                                         nothing was touched then
     * @throws UnsafePathException             when the job's NVM directory is a link or another user's, or a link
     *                                         sits at the heap's, the object directory's or the lock's name
     * @throws NvmDirectoryFullException       when a new heap does not fit in the NVM directory
     */
    public static PersistentHeap open(Config config) throws IOException {
        return locked(config, () -> openLocked(config));
    }

    private static PersistentHeap locked(Config config, LockedOpen opener) throws IOException {
        SecureFiles.createOwnDirectory(config.jobDirectory()); // refuses a link or another user's directory
        RankLock lock = RankLock.acquire(config.lockPath());
        try {
            PersistentHeap heap = opener.open();
            heap.lock = lock;
            return heap;
        } catch (IOException | RuntimeException | Error e) {
            lock.close();
            throw e;
        }
    }

    private static PersistentHeap openLocked(Config config) throws IOException {
        HeapFile.CacheLineWriterFactory writers = PersistentHeap::writerFor;
        HeapFile.Identity identity = new HeapFile.Identity(config.jobId(), config.rank(), config.worldSize());
        if (!Files.exists(config.heapPath()) && !Files.exists(config.directoryPath())) {
            return fresh(config, identity, writers, RecoveryState.fresh("no heap from an earlier run"));
        }
        HeapFile.Validated validated = HeapFile.open(config.heapPath(), identity, writers);
        if (validated.heap() == null) {
            return discard(config, identity, writers, validated.problem());
        }
        HeapFile heap = validated.heap();
        HeapFile.BookmarkState bookmark = heap.bookmark();
        if (bookmark.iteration().isEmpty() && bookmark.torn() == null) {
            // Killed during set-up, perhaps before its object directory was written: nothing to resume, and
            // allocation may have been cut short (the top advanced without its directory entry). Start over on a
            // clean heap; it is no damage to report.
            heap.close();
            return discard(config, identity, writers,
                    RecoveryState.fresh("heap exists but no iteration was bookmarked yet"));
        }
        StringBuilder problem = new StringBuilder();
        Optional<ObjectDirectory> directory = ObjectDirectory.recover(config.directoryPath(), problem);
        if (directory.isEmpty()) {
            heap.close();
            return discard(config, identity, writers, problem.toString());
        }
        Optional<String> unusable = check(heap, directory.get(), config.signature());
        if (unusable.isPresent()) {
            directory.get().close();
            heap.close();
            return discard(config, identity, writers, unusable.get());
        }
        OptionalInt iteration = bookmark.iteration(); // present: check() refused a torn one
        Optional<String> failed = failedAttempt(config, iteration.getAsInt());
        if (failed.isPresent()) {
            directory.get().close();
            heap.close();
            return discard(config, identity, writers, failed.get());
        }
        return new PersistentHeap(heap, directory.get(), RecoveryState.resumable(iteration.getAsInt()),
                config.tracer(), config);
    }

    /**
     * Recovery invariant 3: an NVM restart that threw, or that ended (killed, hung) before its bookmark moved past
     * where it resumed, is not tried again on the same state.
     *
     * @return why the state must not be resumed, or empty
     */
    private static Optional<String> failedAttempt(Config config, int bookmark) throws IOException {
        Optional<NvmAttemptFile.Attempt> attempt = NvmAttemptFile.read(config.attemptPath());
        if (attempt.isEmpty()) {
            return Optional.empty();
        }
        NvmAttemptFile.Attempt a = attempt.get();
        if (a.failed()) {
            return Optional.of("an earlier NVM restart of this state failed (resumed at iteration " + a.resumedAt()
                    + ": " + a.reason() + ")");
        }
        if (bookmark <= a.resumedAt()) {
            return Optional.of("an earlier NVM restart at iteration " + a.resumedAt() + " ended (killed, crashed or"
                    + " hung) before finishing an iteration: not resuming the same state again");
        }
        return Optional.empty();
    }

    private static Optional<String> check(HeapFile heap, ObjectDirectory directory, String signature) {
        if (!directory.signature().map(signature::equals).orElse(false)) {
            return Optional.of("heap was written by '" + directory.signature().orElse("?") + "', not '"
                    + signature + "'");
        }
        if (heap.marker() != 0) {
            return Optional.of("crashed during a persistence operation (region " + (heap.marker() - 1) + ")");
        }
        HeapFile.BookmarkState bookmark = heap.bookmark();
        if (bookmark.torn() != null) {
            return Optional.of(bookmark.torn());
        }
        try {
            long end = HeapLayout.DATA_OFFSET;
            for (ObjectDescriptor object : directory.objects()) {
                if (object.offset() < end || object.offset() % HeapLayout.PAGE != 0
                        || object.offset() + object.byteSize() > heap.top()) {
                    return Optional.of("object directory entry for " + object.name() + " (offset="
                            + object.offset() + " bytes=" + object.byteSize() + ") does not fit the heap");
                }
                end = object.offset() + object.byteSize();
            }
        } catch (IllegalArgumentException malformed) {
            return Optional.of("object directory is corrupt: " + malformed.getMessage());
        }
        return Optional.empty();
    }

    private static PersistentHeap fresh(Config config, HeapFile.Identity identity,
                                        HeapFile.CacheLineWriterFactory writers, RecoveryState state)
            throws IOException {
        NvmAttemptFile.delete(config.attemptPath()); // a record belongs to the heap it was about
        HeapFile heap = null;
        try {
            heap = HeapFile.create(config.heapPath(), identity, config.capacity(), writers);
            ObjectDirectory directory = ObjectDirectory.create(config.directoryPath());
            directory.signature(config.signature());
            return new PersistentHeap(heap, directory, state, config.tracer(), config);
        } catch (SecureFiles.NoRoomException e) {
            if (heap != null) { // the object directory did not fit: a heap without one is of no use to anyone
                heap.close();
                Files.deleteIfExists(config.heapPath());
            }
            throw new NvmDirectoryFullException("NVM directory " + config.directory() + " has no room for a "
                    + describeSize(config.capacity()) + " heap (" + e.getMessage() + ")");
        }
    }

    /**
     * Sets aside whatever an earlier run left and starts a fresh heap: when restart is switched off, or when another
     * rank's NVM state is unusable and the whole job must roll back.
     */
    public static PersistentHeap openFresh(Config config, RecoveryState state) throws IOException {
        return locked(config, () -> discard(config,
                new HeapFile.Identity(config.jobId(), config.rank(), config.worldSize()), PersistentHeap::writerFor,
                state));
    }

    private static PersistentHeap discard(Config config, HeapFile.Identity identity,
                                          HeapFile.CacheLineWriterFactory writers, String reason) throws IOException {
        return discard(config, identity, writers, RecoveryState.unusable(reason));
    }

    private static PersistentHeap discard(Config config, HeapFile.Identity identity,
                                          HeapFile.CacheLineWriterFactory writers, RecoveryState state)
            throws IOException {
        for (Path path : List.of(config.heapPath(), config.directoryPath())) {
            SecureFiles.refuseLink(path);
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                // A rename replaces a link at the .unusable name rather than writing through it.
                Files.move(path, path.resolveSibling(path.getFileName() + ".unusable"),
                        StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            }
        }
        return fresh(config, identity, writers, state);
    }

    /** @return e.g. "8 MiB", "532 KiB", or the bytes when not a whole number of KiB */
    private static String describeSize(long bytes) {
        if (bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        return bytes % (1L << 10) == 0 ? (bytes >> 10) + " KiB" : bytes + "-byte";
    }

    private static CacheLineWriter writerFor(boolean syncMapped) {
        return syncMapped ? new SyncMappingCacheLineWriter() : PmemCacheLineWriter.load();
    }

    /** What was found in NVM when the heap was attached. */
    public RecoveryState recovery() {
        return recovery;
    }

    /** A {@code double} array called {@code name}: the existing one after a crash, else newly allocated (zeros). */
    public DoubleArray doubles(String name, int length, ObjectRole role) {
        return (DoubleArray) attach(name, ElementType.DOUBLE, length, role);
    }

    /** A {@code long} array called {@code name}. */
    public LongArray longs(String name, int length, ObjectRole role) {
        return (LongArray) attach(name, ElementType.LONG, length, role);
    }

    /** An {@code int} array called {@code name}. */
    public IntArray ints(String name, int length, ObjectRole role) {
        return (IntArray) attach(name, ElementType.INT, length, role);
    }

    private DataObject attach(String name, ElementType type, int length, ObjectRole role) {
        ObjectDescriptor.checkName(name);
        DataObject known = attached.get(name);
        if (known != null) {
            throw new IllegalArgumentException("object " + name + " is already attached");
        }
        ObjectDescriptor descriptor = directory.get(name).orElse(null);
        if (descriptor != null && (descriptor.type() != type || descriptor.length() != length)) {
            throw new IllegalStateException("object " + name + " is " + descriptor.type() + "[" + descriptor.length()
                    + "] in the heap but " + type + "[" + length + "] was asked for");
        }
        if (descriptor == null) {
            long offset = file.allocate(type.bytes(length));
            descriptor = new ObjectDescriptor(name, type, offset, length, role == ObjectRole.CANDIDATE);
            file.segment().asSlice(offset, descriptor.byteSize()).fill((byte) 0);
            directory.put(descriptor);
        }
        MemorySegment slice = file.segment().asSlice(descriptor.offset(), descriptor.byteSize());
        DataObject object = switch (type) {
            case DOUBLE -> MappedDoubleArray.of(name, role, slice, descriptor.offset(), tracer);
            case LONG -> MappedLongArray.of(name, role, slice, descriptor.offset(), tracer);
            case INT -> MappedIntArray.of(name, role, slice, descriptor.offset(), tracer);
            case BYTE -> throw new IllegalArgumentException("byte objects are not supported");
        };
        attached.put(name, object);
        return object;
    }

    /** Durably bookmarks {@code iteration} as the main-loop iteration in progress. */
    public void bookmark(int iteration) {
        file.writeBookmark(iteration);
    }

    /**
     * The persistence operation: writes back every cache line of {@code objects} and waits for it, bracketed by a
     * durable in-flight marker so that a crash in the middle is recognized at restart.
     */
    public void persist(int region, List<? extends DataObject> objects) {
        file.writeMarker(region + 1L);
        writeBackAndDrain(objects, false);
        file.writeMarker(0);
    }

    /**
     * Writes back every cache line of {@code objects} and waits for it, without the in-flight marker: for the state
     * a start initialized, before its first bookmark. A crash in the middle leaves no iteration bookmarked, and such a
     * heap is never resumed ({@link #open}), so there is nothing for a marker to tell.
     */
    public void persistBeforeFirstBookmark(List<? extends DataObject> objects) {
        writeBackAndDrain(objects, true);
    }

    /**
     * Writes back each object whole ({@code whole}, or when its application does not declare its changes) or the
     * span of its declared changes ({@link DataObject#changed}), then drains.
     */
    private void writeBackAndDrain(List<? extends DataObject> objects, boolean whole) {
        for (DataObject object : objects) {
            long offset = whole ? 0 : object.unpersistedOffset();
            long bytes = whole ? object.byteSize() : object.unpersistedBytes();
            if (bytes > 0) {
                file.writer().writeBack(object.segment(), offset, bytes);
                if (tracer != null) {
                    tracer.persist(object.heapOffset() + offset, bytes);
                }
            }
            object.persisted();
        }
        file.writer().drain();
    }

    /** Closes the heap and deletes its files: the run they served has finished. */
    public void release() throws IOException {
        RankLock held = lock;
        lock = null; // kept until the files are gone, so that no relaunch attaches a heap being deleted
        try {
            close();
            Files.deleteIfExists(heapPath);
            Files.deleteIfExists(directoryPath);
            NvmAttemptFile.delete(attemptPath);
        } finally {
            if (held != null) {
                held.close();
            }
        }
    }

    /** Durably records that this rank resumes from NVM at {@code iteration} ({@link NvmAttemptFile}). */
    public void beginAttempt(int iteration) throws IOException {
        NvmAttemptFile.begin(attemptPath, iteration);
    }

    /** Durably records that the NVM restart that resumed at {@code iteration} failed, and why. */
    public void failAttempt(int iteration, String reason) throws IOException {
        NvmAttemptFile.fail(attemptPath, iteration, reason);
    }

    /** Path of the heap file (its object directory is beside it). */
    public Path heapFile() {
        return heapPath;
    }

    /** The whole mapped heap (the crash emulator keeps its NVM image against it). */
    public MemorySegment segment() {
        return file.segment();
    }

    /** The objects attached so far, by name, in the order they were attached. */
    public Map<String, DataObject> objects() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(attached));
    }

    /** How persistence operations write cache lines back. */
    public String persistenceMechanism() {
        return file.writer().mechanism();
    }

    /** Unmaps the heap and closes the directory; idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                directory.close();
                file.close();
            } finally {
                if (lock != null) {
                    lock.close();
                }
            }
        }
    }
}
