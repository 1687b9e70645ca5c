package dev.lazarus.store.format;

/**
 * Byte layout of a rank manifest ({@code rank-N.manifest}), little-endian. The manifest describes one rank's
 * checkpoint of one version: the variables (self-describing: name, element type, shape), and the chunks of the data
 * file ({@code rank-N.data}) with a CRC32C each. It is written last and atomically, so a data file without a manifest
 * is an unfinished write.
 *
 * <pre>
 *  0        8        12       16       20       24                32                40       44     46     48
 *  +--------+--------+--------+--------+--------+-----------------+-----------------+--------+------+------+
 *  | magic  | format | total  | rank   | world  | version         | parent version  | block  | job  | vars |
 *  | 8 B    | u32    | length | u32    | u32    | u64             | u64, -1 = full  | size   | len  | u16  |
 *  +--------+--------+--------+--------+--------+-----------------+-----------------+--------+------+------+
 *  48       52       54       56                64
 *  | chunks | page   | flags  | data file length| job id (job len bytes, UTF-8)
 *  | u32    | filter | u16    | u64             | variables: u16 name length, name, u8 type code, u8 dimensions,
 *  |        | u16    |        |                 | u64 x dims
 *  +--------+--------+-----------------+ chunks, CHUNK_BYTES each:
 *                                        | u32 variable index | u32 length | u64 variable offset | u64 data offset
 *                                        | u32 CRC32C of the chunk's bytes | u32 0 |
 *                                        u32 CRC32C of every byte before it (the manifest's last 4 bytes)
 *  page filter: u16 {@link PageFilter} code, 0 unknown (formats that kept the field zero), 1 tracked, 2 all pages
 *  flags: u16, bit 0 {@link #FLAG_UNVERIFIED}; other bits must be zero (formats before it kept the field zero)
 * </pre>
 *
 * Every count and size read back is bounded before anything is allocated: the file by {@link #MAX_MANIFEST_BYTES},
 * names by 64 bytes, dimensions by 8, and every count by the bytes that remain.
 */
public final class ManifestLayout {
    /** "LZCKMAN1" in little-endian byte order. */
    public static final long MAGIC = 0x314E414D4B435A4CL;
    public static final int FORMAT = 1;

    public static final int FORMAT_OFFSET = 8;
    public static final int TOTAL_LENGTH_OFFSET = 12;
    public static final int RANK_OFFSET = 16;
    public static final int WORLD_OFFSET = 20;
    public static final int VERSION_OFFSET = 24;
    public static final int PARENT_OFFSET = 32;
    public static final int BLOCK_SIZE_OFFSET = 40;
    public static final int JOB_LENGTH_OFFSET = 44;
    public static final int VARIABLE_COUNT_OFFSET = 46;
    public static final int CHUNK_COUNT_OFFSET = 48;
    public static final int PAGE_FILTER_OFFSET = 52;
    public static final int FLAGS_OFFSET = 54;
    /** The version was written from state no acceptance check has passed yet (see {@code RankManifest}). */
    public static final int FLAG_UNVERIFIED = 1;
    public static final int DATA_LENGTH_OFFSET = 56;
    public static final int HEADER_BYTES = 64;

    public static final int CHUNK_BYTES = 32;
    public static final int CRC_BYTES = 4;

    /** A manifest larger than this is rejected unread (8 million chunks). */
    public static final int MAX_MANIFEST_BYTES = 256 << 20;
    /** Most chunks a manifest can hold; a writer with more changed runs writes a full checkpoint instead. */
    public static final int MAX_CHUNKS = (MAX_MANIFEST_BYTES - (1 << 20)) / CHUNK_BYTES;
    /** Longest chunk: one CRC covers at most this many bytes, so damage is located to 1 MiB. */
    public static final int MAX_CHUNK_BYTES = 1 << 20;
    /** Most variables per rank checkpoint. */
    public static final int MAX_VARIABLES = 65_535;
    /** Parent version of a full checkpoint. */
    public static final long NO_PARENT = -1;

    private ManifestLayout() {
    }
}
