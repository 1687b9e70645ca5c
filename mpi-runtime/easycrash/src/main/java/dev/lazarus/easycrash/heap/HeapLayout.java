package dev.lazarus.easycrash.heap;

/**
 * Byte layout of a rank's heap file. Every record the restart depends on sits in a cache line of its own, so that
 * persisting it is one line write-back and a torn write damages nothing else.
 *
 * <pre>
 *  offset  size  field
 *  ------  ----  ---------------------------------------------------------------
 *       0     8  magic "LZHEAP01"
 *       8     4  layout version (1)
 *      12     4  world size (ranks of the job that created the heap)
 *      16     4  rank
 *      20     4  reserved (0)
 *      24     8  job id hash (FNV-1a 64 of the job id)
 *      32     8  capacity: file length in bytes
 *      40     8  allocation top: first free byte (objects are allocated below it)
 *      48     8  CRC32C of bytes [0, 48)
 *     ...        zero up to 64
 *  ------  ----  bookmark line: two slots of 32 bytes, at 64 and at 96 -------
 *      +0     8  sequence: one more than the newest slot's at every bookmark write, 0 = never written
 *      +8     4  main-loop iteration
 *     +12     4  reserved (0)
 *     +16     8  CRC32C of the slot's bytes [+0, +16)
 *  ------  ----  persistence marker line ---------------------------------------
 *     128     8  marker: 0 when no persistence operation is in flight, else (region + 1)
 *  ------  ----  ----------------------------------------------------------------
 *    4096     -  data objects, each starting on a 4 KiB page boundary
 * </pre>
 */
public final class HeapLayout {
    public static final long MAGIC = 0x3130504145485a4cL; // "LZHEAP01" little-endian
    public static final int VERSION = 1;

    public static final long MAGIC_OFFSET = 0;
    public static final long VERSION_OFFSET = 8;
    public static final long WORLD_SIZE_OFFSET = 12;
    public static final long RANK_OFFSET = 16;
    public static final long JOB_HASH_OFFSET = 24;
    public static final long CAPACITY_OFFSET = 32;
    public static final long TOP_OFFSET = 40;
    public static final long HEADER_CRC_OFFSET = 48;
    public static final long HEADER_CHECKED_BYTES = 48;

    /**
     * The bookmark's line. A write goes to the slot that does not hold the newest bookmark, so a write torn by a kill
     * leaves the one before it whole.
     */
    public static final long BOOKMARK_OFFSET = 64;
    public static final long BOOKMARK_SLOT_BYTES = 32;
    public static final int BOOKMARK_SLOTS = 2;
    /** Offsets within a slot. */
    public static final long BOOKMARK_SEQUENCE_OFFSET = 0;
    public static final long BOOKMARK_ITERATION_OFFSET = 8;
    public static final long BOOKMARK_CRC_OFFSET = 16;
    public static final long BOOKMARK_CHECKED_BYTES = 16;

    public static final long MARKER_OFFSET = 128;

    public static final long CACHE_LINE = 64;
    public static final long PAGE = 4096;
    public static final long DATA_OFFSET = PAGE;

    private HeapLayout() {
    }

    /** {@code value} rounded up to a multiple of {@link #PAGE}. */
    public static long pageAlign(long value) {
        return (value + PAGE - 1) & -PAGE;
    }

    /** FNV-1a 64-bit hash of a job id: stable, cheap, and stored so a foreign heap file is recognized. */
    public static long jobHash(String jobId) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < jobId.length(); i++) {
            hash ^= jobId.charAt(i);
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
