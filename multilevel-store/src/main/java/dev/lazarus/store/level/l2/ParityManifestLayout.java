package dev.lazarus.store.level.l2;

/**
 * Byte layout of a parity manifest ({@code l2-parity.manifest} in a version's L1 directory), little-endian like the
 * rank manifests. It describes the set the redundancy file beside it ({@code l2-parity.xor}: an XOR parity chunk, or
 * under {@link L2Scheme#PARTNER} a copy of the left neighbour's payload) belongs to, completely enough that a
 * survivor's copy lets a replacement node rebuild a lost member: the scheme, the members, every member's payload size
 * and file table (rank, kind, size, CRC32C of each file), and the CRC32C of this member's redundancy file. It is
 * written last and atomically, so parity without a manifest is an unfinished encode.
 *
 * <pre>
 *  0        8        12       16                24       28       30       32       34       36       40
 *  +--------+--------+--------+-----------------+--------+--------+--------+--------+--------+--------+
 *  | magic  | format | total  | version u64     | set id | set    | member | job    | scheme | parity |
 *  | 8 B    | u32    | length |                 | u32    | size n | index  | length | u16    | CRC32C |
 *  |        |        | u32    |                 |        | u16    | u16    | u16    |        | u32    |
 *  +--------+--------+--------+-----------------+--------+--------+--------+--------+--------+--------+
 *  40                48
 *  | chunk size u64  | job id (job length bytes, ASCII)       scheme: 0 XOR, 1 PARTNER (L2Scheme.code)
 *  |  (of the XOR    |
 *  |   layout)       |
 *  +-----------------+ then n members, in set order:
 *                    |   u16 address length | address (ASCII host:port, informational) | file table
 *                    u32 CRC32C of every byte before it (the manifest's last 4 bytes)
 *
 *  file table (also the body of the TABLE response on the wire):
 *  +-----------------+------------+------------------------------------------------------------+
 *  | payload size u64| count u32  | count entries of FILE_BYTES:                               |
 *  +-----------------+------------+  u32 rank | u8 kind (0 manifest, 1 data) | 3 x 0 | u64 size  |
 *                                    | u32 CRC32C of the file | u32 0                            |
 *  entries in payload order: rank ascending, each rank's manifest then its data file; sizes sum to the payload size
 * </pre>
 *
 * Every count and length read back is bounded by the bytes that remain, the whole by {@link #MAX_MANIFEST_BYTES},
 * before anything is allocated. Paths are never built from the addresses; files are named by rank and kind only.
 */
public final class ParityManifestLayout {
    /** "LZL2PAR1" in little-endian byte order. */
    public static final long MAGIC = 0x31524150324C5A4CL;
    public static final int FORMAT = 1;

    public static final int FORMAT_OFFSET = 8;
    public static final int TOTAL_LENGTH_OFFSET = 12;
    public static final int VERSION_OFFSET = 16;
    public static final int SET_ID_OFFSET = 24;
    public static final int SET_SIZE_OFFSET = 28;
    public static final int MEMBER_OFFSET = 30;
    public static final int JOB_LENGTH_OFFSET = 32;
    public static final int SCHEME_OFFSET = 34;
    public static final int PARITY_CRC_OFFSET = 36;
    public static final int CHUNK_SIZE_OFFSET = 40;
    public static final int HEADER_BYTES = 48;

    public static final int TABLE_HEADER_BYTES = 12;
    public static final int FILE_BYTES = 24;
    public static final int CRC_BYTES = 4;
    public static final int MAX_ADDRESS_BYTES = 255;

    /** A parity manifest larger than this is rejected unread (about 700 000 file entries). */
    public static final int MAX_MANIFEST_BYTES = 16 << 20;

    private ParityManifestLayout() {
    }
}
