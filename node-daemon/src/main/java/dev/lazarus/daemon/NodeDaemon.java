package dev.lazarus.daemon;

import dev.lazarus.store.catalog.VersionStatus;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The node daemon as a rank sees it: the one door through which a rank hands over the work that outlives a checkpoint
 * call (protecting a finished L1 version at L2, draining it to L3, rebuilding the node's files of a version from its
 * set) and asks what the node holds. Only the node's leader rank opens it; the collective steps around it (agreeing
 * on the node list, telling every rank which nodes failed) stay with the ranks.
 *
 * <p>Implementations come from a {@link NodeDaemonFactory} named by {@link NodeDaemonConfig#mode()}, found by
 * {@link NodeDaemons#open}: the daemon embedded in the leader rank ({@code embedded}), or the node's daemon process
 * reached over its Unix socket ({@code process}), which several of the leader's connections may share.
 *
 * <p>Calls come from one thread at a time (the rank's main thread or its drain thread, which the checkpoint client
 * orders), except {@link #close()}.
 */
public interface NodeDaemon extends AutoCloseable {

    /** @return where this node's L2 service listens, {@code host:port}, for the ranks to agree on the node list */
    String l2Endpoint();

    /**
     * Tells the daemon the job's nodes, as the ranks agreed on them, and which one it serves; collective in spirit:
     * every node's daemon gets the same list.
     *
     * @param endpoints every node's {@link #l2Endpoint()}, node index order
     * @param self      this node's index
     * @return this node's place in its L2 set
     * @throws IllegalArgumentException if the list or the index is unusable
     */
    L2Membership joinL2(List<String> endpoints, int self);

    /**
     * Protects a finished L1 version at L2: writes this node's parity (or partner copy) of it afresh, and of every
     * older version of its chain that has none yet. Blocks until done; the checkpoint client calls it from its drain
     * thread.
     *
     * @return parity bytes written
     * @throws IllegalStateException if {@link #joinL2} was not called
     */
    long submit(long version) throws IOException;

    /**
     * Drains a finished L1 version of the node's ranks to L3: each rank's checkpoint of {@code version}, composed from
     * its L1 chain, is written to the job's directory under {@code l3Root} as one full checkpoint (manifest last).
     * Blocks until done; a daemon process finishes it even if the caller dies meanwhile.
     *
     * @param ranks  the node's ranks whose files are drained
     * @param l3Root the L3 (parallel file system) root; the job's directory under it is used
     * @param direct write the data files with O_DIRECT where the file system takes it
     * @return bytes written to L3
     * @throws NodeDaemonGoneException  if the daemon process did not answer (it died): nothing was drained
     * @throws IOException              if a rank's files cannot be composed or written (the ranks done before it stay
     *                                  on L3); from a daemon process, any failure, with the daemon's one line
     * @throws IllegalArgumentException if a rank is outside the job (in the rank's own daemon)
     */
    long drainToL3(long version, List<Integer> ranks, Path l3Root, boolean direct) throws IOException;

    /**
     * Rebuilds this node's rank files of {@code version}, and of every older version its chain increments, from its L2
     * set. Whatever the node still held of a rebuilt version is deleted only once the replacement is in place; the
     * node's parity of the rebuilt versions is not written (a later {@link #submit} does that).
     *
     * @return the versions rebuilt, or the version that could not be and why
     */
    RebuildOutcome rebuild(long version);

    /**
     * @return what the node's L1 holds of the job, oldest version first, each with the node's L2 parity of it (rank
     *         files checked by their manifests, not their data)
     */
    List<VersionStatus> holdings() throws IOException;

    /**
     * Removes this node's L2 files of versions older than {@code newest} that have no rank files left. Newer versions
     * are left alone: a rank of the node may be writing one.
     */
    void pruneOlderThan(long newest);

    /**
     * At restart, removes this node's parity of versions newer than {@code restored}: an earlier run wrote it, and the
     * version number will be reused for other data. {@code -1} forgets all.
     */
    void forgetNewerThan(long restored);

    /** Removes every L2 file of this node, after a finished run. */
    void release();

    /** Stops serving once no other node has used the service for a moment, bounded by the I/O timeout. */
    @Override
    void close();
}
