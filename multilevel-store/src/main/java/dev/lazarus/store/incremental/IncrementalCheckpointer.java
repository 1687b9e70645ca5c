package dev.lazarus.store.incremental;

import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.Variable;
import dev.lazarus.store.dirty.BlockHashes;
import dev.lazarus.store.dirty.WrittenPageScanner;
import dev.lazarus.store.format.DataFileWriter;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.format.ManifestLayout;
import dev.lazarus.store.format.PageFilter;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One rank's hash-based incremental checkpointing (libhashckpt): pages written since the last checkpoint (the
 * pre-filter) and ranges MPI received are hashed in blocks, and only blocks whose 128-bit hash changed are written,
 * with a manifest naming the version they increment. Every {@code fullEvery}-th version is full, which bounds the
 * chain a restart must compose, and so is a version in which more than half of the bytes changed.
 *
 * <p>Used by one thread, the rank's. The checkpoint is taken while the application waits, so the memory does not
 * change under the hash.
 */
public final class IncrementalCheckpointer implements AutoCloseable {
    /** Most versions whose parent {@link #parentOf} remembers; older ones are read from their manifests. */
    private static final int MAX_KNOWN_PARENTS = 1024;

    private final CheckpointDirectory directory;
    private final int rank;
    private final int worldSize;
    private final int blockSize;
    private final int fullEvery;
    private final WrittenPageScanner scanner;
    private final List<TrackedRegion> regions = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private long lastVersion = ManifestLayout.NO_PARENT;
    private int incrementsSinceFull;
    /** Whether the versions written now come from state no acceptance check has passed (the manifests say so). */
    private boolean unverified;
    /** Parent of each version this checkpointer wrote, oldest written first, so that pruning need not read them. */
    private final Map<Long, Long> parents = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            return size() > MAX_KNOWN_PARENTS;
        }
    };

    /**
     * @param directory where versions are written (the L1 level of this job)
     * @param rank      this rank
     * @param worldSize ranks in the job
     * @param blockSize hashing block size, a power of two from 256 to 65536
     * @param fullEvery every how many versions a full checkpoint is written; 1 makes every checkpoint full
     * @param scanner   the page pre-filter; its {@code description()} says whether it is precise
     */
    public IncrementalCheckpointer(CheckpointDirectory directory, int rank, int worldSize, int blockSize,
                                   int fullEvery, WrittenPageScanner scanner) {
        BlockHashes.checkBlockSize(blockSize);
        if (worldSize < 1 || worldSize > RankManifest.MAX_WORLD || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank=" + rank + " worldSize=" + worldSize + " invalid");
        }
        if (fullEvery < 1) {
            throw new IllegalArgumentException("fullEvery=" + fullEvery + " must be at least 1");
        }
        this.directory = directory;
        this.rank = rank;
        this.worldSize = worldSize;
        this.blockSize = blockSize;
        this.fullEvery = fullEvery;
        this.scanner = scanner;
    }

    /**
     * Adds a region to every checkpoint from the next one on. Native memory that starts on a page boundary is
     * page-tracked when the scanner accepts it (a partial last page is hashed at every checkpoint); other memory is
     * hashed whole at every checkpoint.
     *
     * @return true if the region's pages are tracked
     */
    public boolean protect(ProtectedRegion region) {
        if (!names.add(region.variable().name())) {
            throw new IllegalArgumentException("variable " + region.variable().name() + " is already protected");
        }
        if (regions.size() >= ManifestLayout.MAX_VARIABLES) {
            throw new IllegalArgumentException("more than " + ManifestLayout.MAX_VARIABLES + " variables");
        }
        MemorySegment pages = fullEvery > 1 && scanner.precise() ? TrackedRegion.wholePages(region.memory()) : null;
        if (pages != null) {
            try {
                scanner.register(pages);
            } catch (IllegalArgumentException | IllegalStateException e) {
                pages = null; // memory the kernel cannot track: hashed whole instead
            }
        }
        regions.add(new TrackedRegion(region, blockSize, pages));
        lastVersion = ManifestLayout.NO_PARENT; // the next checkpoint must be full to hold the new variable
        return pages != null;
    }

    /**
     * Marks a range MPI wrote into a receive buffer, if the buffer is protected memory. Called by receive hooks.
     *
     * @return true if some protected variable holds the range
     */
    public boolean markReceived(Object buffer, long byteOffset, long byteLength) {
        boolean marked = false;
        for (TrackedRegion region : regions) {
            marked |= region.received.mark(buffer, byteOffset, byteLength);
        }
        return marked;
    }

    /**
     * Writes this rank's checkpoint of {@code version}: full, or the blocks changed since the previous version.
     * On failure the next checkpoint is full, since this one's increment may be half written.
     *
     * @param version greater than every version this checkpointer wrote before
     */
    public CheckpointStats checkpoint(long version) throws IOException {
        if (version <= lastVersion) {
            throw new IllegalArgumentException("version=" + version + " must be greater than the last, "
                    + lastVersion);
        }
        long started = System.nanoTime();
        long hashed = findChangedBlocks();
        long hashedAt = System.nanoTime();
        boolean full = lastVersion == ManifestLayout.NO_PARENT || incrementsSinceFull + 1 >= fullEvery
                || mostlyChanged() || changedRuns() > ManifestLayout.MAX_CHUNKS
                || !Files.exists(directory.manifestFile(lastVersion, rank));
        long parent = full ? ManifestLayout.NO_PARENT : lastVersion;
        try {
            Written written = write(version, parent);
            lastVersion = version;
            incrementsSinceFull = full ? 0 : incrementsSinceFull + 1;
            parents.remove(version); // re-inserted: a version rewritten after a reset is the newest written
            parents.put(version, parent);
            return stats(version, parent, written.manifest().dataLength(), written.manifestBytes(), hashed,
                    hashedAt - started, System.nanoTime() - hashedAt);
        } catch (IOException | RuntimeException e) {
            parents.remove(version); // its files may be half written, or an older write's
            lastVersion = ManifestLayout.NO_PARENT;
            regions.forEach(r -> r.hashes.forget());
            throw e;
        }
    }

    /**
     * Says whether the versions written from now on come from state no acceptance check has passed yet (a run resumed
     * from NVM, or restored from an unverified version); their manifests record it (recovery invariant 2).
     */
    public void writeUnverified(boolean value) {
        unverified = value;
    }

    /** Forgets the block hashes, so that the next checkpoint is full: after a restore replaced the memory. */
    public void restored() {
        for (TrackedRegion r : regions) { // a loop: a relaunched rank's first restore links no lambda
            r.hashes.forget();
        }
        lastVersion = ManifestLayout.NO_PARENT;
        parents.clear(); // the files may have been rebuilt or replaced meanwhile: read them again
    }

    /**
     * The parent this checkpointer wrote {@code version} with, for {@code Retention.prune} to follow chains without
     * reading manifests. Only a bounded number of the versions last written since the last {@link #restored()} are
     * remembered.
     *
     * @return the parent, {@link ManifestLayout#NO_PARENT} for a full checkpoint; empty if this checkpointer did not
     *         write the version (or no longer remembers it), or its last write of it failed
     */
    public OptionalLong parentOf(long version) {
        Long parent = parents.get(version);
        return parent == null ? OptionalLong.empty() : OptionalLong.of(parent);
    }

    /** @return the protected regions, in protection order */
    public List<ProtectedRegion> regions() {
        List<ProtectedRegion> list = new ArrayList<>(regions.size()); // a loop: a restore's first call links no lambda
        for (TrackedRegion r : regions) {
            list.add(r.region);
        }
        return List.copyOf(list);
    }

    /** @return what the page pre-filter is, for logs and {@code ckpt} output */
    public String pageTracking() {
        long tracked = regions.stream().filter(TrackedRegion::pageTracked).count();
        return scanner.description() + "; " + tracked + " of " + regions.size() + " variables page-tracked";
    }

    private long findChangedBlocks() {
        long hashed = 0;
        for (TrackedRegion region : regions) {
            region.candidates.clear();
            region.pages.clear();
            if (fullEvery == 1) {
                // Every checkpoint is full: no increment will ever need the hashes, so none are computed.
                region.pagesWritten(0, region.byteSize());
                region.changed.clear();
                region.changed.set(0, region.hashes.blocks());
                continue;
            }
            if (region.pageTracked()) {
                scanner.scanAndReset(region.trackedPages, region::pagesWritten);
            }
            region.untrackedWritten();
            region.received.drainInto(region.candidates);
            region.pagesOfCandidates();
            hashed += region.hashes.hashChanged(region.region.memory(), region.candidates, region.changed);
        }
        return hashed;
    }

    /**
     * Whether more than half of the protected bytes changed: the increment would then save less than half a full
     * version's write, while every later restore would read its parent chain too (and an increment of everything
     * writes as many bytes as the full version, in more pieces). The hashes are known by now, so this costs nothing.
     */
    private boolean mostlyChanged() {
        long changed = 0;
        long all = 0;
        for (TrackedRegion region : regions) {
            changed += region.changedBytes();
            all += region.byteSize();
        }
        return changed > all / 2;
    }

    private long changedRuns() {
        long runs = 0;
        for (TrackedRegion region : regions) {
            for (int b = region.changed.nextSetBit(0); b >= 0; b = region.changed.nextSetBit(b + 1)) {
                runs++;
                b = region.changed.nextClearBit(b);
            }
        }
        return runs;
    }

    /** A published version: its manifest and the manifest file's size. */
    private record Written(RankManifest manifest, long manifestBytes) {
    }

    private Written write(long version, long parent) throws IOException {
        directory.createVersion(version);
        List<Variable> variables = regions.stream().map(r -> r.region.variable()).toList();
        try (DataFileWriter data = directory.recyclesDataFiles()
                ? DataFileWriter.overwritingSpare(directory.dataFile(version, rank), directory.spareDataFile(rank))
                : new DataFileWriter(directory.dataFile(version, rank))) {
            for (int v = 0; v < regions.size(); v++) {
                TrackedRegion region = regions.get(v);
                if (parent == ManifestLayout.NO_PARENT) {
                    writeRange(data, v, region, 0, region.byteSize());
                } else {
                    writeChangedRuns(data, v, region);
                }
            }
            data.force();
            RankManifest manifest = new RankManifest(directory.job(), rank, worldSize, version, parent, blockSize,
                    variables, data.chunks(), scanner.precise() ? PageFilter.TRACKED : PageFilter.ALL_PAGES,
                    unverified);
            return new Written(manifest, ManifestFiles.publish(directory.manifestFile(version, rank), manifest));
        }
    }

    private void writeChangedRuns(DataFileWriter data, int variable, TrackedRegion region) throws IOException {
        for (int first = region.changed.nextSetBit(0); first >= 0; first = region.changed.nextSetBit(first)) {
            int end = region.changed.nextClearBit(first);
            long start = (long) first * blockSize;
            writeRange(data, variable, region, start, Math.min(region.byteSize(), (long) end * blockSize) - start);
            first = end;
        }
    }

    private static void writeRange(DataFileWriter data, int variable, TrackedRegion region, long start, long length)
            throws IOException {
        MemorySegment memory = region.region.memory();
        for (long offset = start; offset < start + length; offset += ManifestLayout.MAX_CHUNK_BYTES) {
            data.append(variable, memory, offset, (int) Math.min(ManifestLayout.MAX_CHUNK_BYTES,
                    start + length - offset));
        }
    }

    private CheckpointStats stats(long version, long parent, long dataBytes, long manifestBytes, long hashed,
                                  long hashNanos, long writeNanos) {
        long full = 0;
        long pageLevel = 0;
        long blockLevel = 0;
        for (TrackedRegion region : regions) {
            full += region.byteSize();
            pageLevel += region.pageBytes();
            blockLevel += region.changedBytes();
        }
        return new CheckpointStats(version, parent, full, pageLevel, blockLevel, dataBytes, manifestBytes, hashed,
                hashNanos, writeNanos);
    }

    @Override
    public void close() {
        unprotectAll();
    }

    /**
     * Forgets every protected region, e.g. before a rollback protects the same names again over new memory; the next
     * checkpoint is full.
     */
    public void unprotectAll() {
        for (TrackedRegion region : regions) {
            if (region.pageTracked()) {
                scanner.unregister(region.trackedPages);
            }
        }
        regions.clear();
        names.clear();
        lastVersion = ManifestLayout.NO_PARENT;
    }
}
