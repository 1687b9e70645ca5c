package dev.lazarus.recovery.policy;

import dev.lazarus.store.level.l2.L2Scheme;

import java.util.List;

/**
 * A node some rank of which could not restore a version from L1, in its L2 set.
 *
 * @param version    the version being restored
 * @param node       the node, an index into {@code nodeNames}
 * @param nodeNames  every node's name, node index order
 * @param nodeFailed per node, whether one of its ranks could not restore the version from L1
 * @param scheme     the set's scheme
 * @param setId      the set's id
 * @param member     the node's index in its set; the set is the consecutive nodes from {@code node - member}
 * @param setSize    nodes in the set
 */
public record L2Loss(long version, int node, List<String> nodeNames, List<Boolean> nodeFailed, L2Scheme scheme,
                     int setId, int member, int setSize) {

    public L2Loss {
        nodeNames = List.copyOf(nodeNames);
        nodeFailed = List.copyOf(nodeFailed);
        if (nodeNames.size() != nodeFailed.size() || node - member < 0 || node - member + setSize > nodeNames.size()) {
            throw new IllegalArgumentException("L2 loss of node=" + node + " member=" + member + " setSize=" + setSize
                    + " outside the " + nodeNames.size() + " nodes");
        }
    }

    /** @return the node index of the set's first member */
    public int firstOfSet() {
        return node - member;
    }
}
