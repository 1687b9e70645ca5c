package dev.lazarus.checkpoint;

import dev.lazarus.mpi.Comm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which ranks share a node, and so an L1 RAM disk. Nodes are numbered in the order of their lowest rank, and a
 * node's lowest rank is its leader: the rank that runs the node's L2 service. Every rank builds the same map from
 * one all-gather of the node names.
 *
 * @param names      the node names, in node order
 * @param nodeOfRank the node index of every rank
 */
public record NodeMap(List<String> names, int[] nodeOfRank) {
    public NodeMap {
        names = List.copyOf(names);
        nodeOfRank = nodeOfRank.clone();
    }

    /** Gathers every rank's node name; collective. */
    public static NodeMap gather(Comm comm, String node) {
        return of(StringGather.allgather(comm, node));
    }

    /** @param nodeOfEachRank every rank's node name, by rank */
    public static NodeMap of(List<String> nodeOfEachRank) {
        Map<String, Integer> index = new LinkedHashMap<>();
        int[] nodeOfRank = new int[nodeOfEachRank.size()];
        for (int rank = 0; rank < nodeOfRank.length; rank++) {
            nodeOfRank[rank] = index.computeIfAbsent(nodeOfEachRank.get(rank), name -> index.size());
        }
        return new NodeMap(new ArrayList<>(index.keySet()), nodeOfRank);
    }

    /** @return the number of nodes */
    public int nodes() {
        return names.size();
    }

    /** @return the node index of a rank */
    public int node(int rank) {
        return nodeOfRank[rank];
    }

    /** @return the ranks on a node, ascending */
    public List<Integer> ranksOn(int node) {
        List<Integer> ranks = new ArrayList<>();
        for (int rank = 0; rank < nodeOfRank.length; rank++) {
            if (nodeOfRank[rank] == node) {
                ranks.add(rank);
            }
        }
        return ranks;
    }

    /** @return the node's lowest rank */
    public int leader(int node) {
        return ranksOn(node).getFirst();
    }

    /** @return whether the rank is its node's leader */
    public boolean isLeader(int rank) {
        return leader(node(rank)) == rank;
    }
}
