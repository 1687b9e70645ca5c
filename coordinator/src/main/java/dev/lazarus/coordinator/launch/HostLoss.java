package dev.lazarus.coordinator.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The nodes a failed launch lost, as the coordinator found them afterwards ({@link HostPool#survey}).
 *
 * @param lost    each lost node, in host file order
 * @param setSize the nodes per L2 set, or 0 when the job has no L2
 */
public record HostLoss(List<LostHost> lost, int setSize) {
    /** Nothing lost. */
    public static final HostLoss NONE = new HostLoss(List.of(), 0);

    public HostLoss {
        lost = List.copyOf(lost);
        if (setSize < 0) {
            throw new IllegalArgumentException("set size " + setSize);
        }
    }

    /**
     * One lost node.
     *
     * @param node      its place in the host file, from 0 (its place in the L2 sets)
     * @param host      its name as the host file gives it
     * @param reachable whether it answers again (it crashed and came back empty); an unreachable one needs a spare
     * @param how       what was seen, for the log
     */
    public record LostHost(int node, String host, boolean reachable, String how) {
    }

    /** @return whether any node was lost */
    public boolean any() {
        return !lost.isEmpty();
    }

    /** @return the lost nodes that do not answer, which the next launch cannot use */
    public List<LostHost> unreachable() {
        return lost.stream().filter(h -> !h.reachable()).toList();
    }

    /**
     * @return the hosts of the first L2 set that lost two or more of its nodes, whose L1 files no rebuild can bring
     *         back; empty when every set lost at most one (or the job has no L2: then no loss is rebuilt anyway)
     */
    public Optional<List<String>> lostSet() {
        if (setSize == 0) {
            return Optional.empty();
        }
        for (LostHost first : lost) {
            List<String> inSet = new ArrayList<>();
            lost.stream().filter(h -> h.node() / setSize == first.node() / setSize).forEach(h -> inSet.add(h.host()));
            if (inSet.size() >= 2) {
                return Optional.of(inSet);
            }
        }
        return Optional.empty();
    }
}
