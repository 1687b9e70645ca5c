package dev.lazarus.store.export;

/**
 * Names and types in an exported HDF5 file of one checkpoint version:
 *
 * <pre>
 *  /                         attributes: job (string), version (int64), world_size (int32), _jHDF (the writer)
 *  /rank_0                   attributes: rank (int32), parent_version (int64, -1 = full checkpoint),
 *                                        chain (int64[]: the versions composed, base first)
 *  /rank_0/&lt;variable&gt;        one dataset per variable, named by it; the variable's element type and full shape
 *                            (row-major, slowest first); contiguous; what a restore of the version puts in memory
 *  /rank_1 ...               the exported ranks: all by default, or the subset asked for
 * </pre>
 *
 * Element types map to HDF5 types in the machine's byte order ({@code LE} on x86-64 and aarch64):
 *
 * <pre>
 *  BYTE   -&gt; H5T_STD_I8LE     INT    -&gt; H5T_STD_I32LE    LONG -&gt; H5T_STD_I64LE
 *  FLOAT  -&gt; H5T_IEEE_F32LE   DOUBLE -&gt; H5T_IEEE_F64LE
 * </pre>
 *
 * A variable with no elements is a dataset with its shape (say {@code ( 0 )} or {@code ( 3, 0, 2 )}) and no storage.
 */
public final class Hdf5ExportLayout {
    /** Root attribute: the job id. */
    public static final String JOB = "job";
    /** Root attribute: the exported version. */
    public static final String VERSION = "version";
    /** Root attribute: ranks in the job, whether or not all were exported. */
    public static final String WORLD_SIZE = "world_size";
    /** Rank group attribute: the rank. */
    public static final String RANK = "rank";
    /** Rank group attribute: the version this rank's checkpoint increments, -1 for a full checkpoint. */
    public static final String PARENT_VERSION = "parent_version";
    /** Rank group attribute: the versions composed into the state, the full base first. */
    public static final String CHAIN = "chain";
    /** Prefix of a rank's group name. */
    public static final String RANK_GROUP_PREFIX = "rank_";

    private Hdf5ExportLayout() {
    }

    /** @return the name of a rank's group, {@code rank_<N>} */
    public static String rankGroup(int rank) {
        return RANK_GROUP_PREFIX + rank;
    }
}
