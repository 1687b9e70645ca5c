package dev.lazarus.coordinator.launch;

import dev.lazarus.store.level.l2.L2Scheme;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The nodes a failed launch lost, as the coordinator found them afterwards ({@link HostPool#survey}).
 *
 * @param lost    each lost node, in host file order
 * @param setSize the nodes per L2 set, or 0 when the job has no L2
 * @param scheme  the L2 scheme, which decides which double losses a set survives
 * @param nodes   the job's node count (the last set may be smaller), or 0 when unknown (every set full)
 */
public record HostLoss(List<LostHost> lost, int setSize, L2Scheme scheme, int nodes) {
    /** Nothing lost. */
    public static final HostLoss NONE = new HostLoss(List.of(), 0);

    public HostLoss {
        lost = List.copyOf(lost);
        if (setSize < 0 || nodes < 0) {
            throw new IllegalArgumentException("set size " + setSize + ", nodes " + nodes);
        }
    }

    /** The nodes lost from XOR sets of {@code setSize}. */
    public HostLoss(List<LostHost> lost, int setSize) {
        this(lost, setSize, L2Scheme.XOR, 0);
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

    /**
     * @return this loss as the decision weighs it when the lost nodes' ranks move to the nodes left: the L2 sets
     *         change with the node count, so no set rebuilds them (as without L2)
     */
    public HostLoss withoutRebuild() {
        return new HostLoss(lost, 0, scheme, nodes);
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
     * @return the lost hosts (in host file order) of the first L2 set whose lost nodes' L1 files no rebuild can bring
     *         back: under XOR two or more of one set, under PARTNER a node and its partner (the next node of its set,
     *         which holds its copy); empty when every loss can be rebuilt (or the job has no L2: then no loss is
     *         rebuilt anyway)
     */
    public Optional<List<String>> lostSet() {
        if (setSize == 0) {
            return Optional.empty();
        }
        for (LostHost first : lost) {
            int start = first.node() / setSize * setSize;
            int size = nodes == 0 ? setSize : Math.min(setSize, nodes - start);
            List<String> inSet = new ArrayList<>();
            if (scheme == L2Scheme.PARTNER) {
                int partner = start + L2Scheme.partnerOf(first.node() - start, size);
                lost.stream().filter(h -> h.node() == partner).findFirst().ifPresent(h -> inSet.addAll(
                        h.node() < first.node() ? List.of(h.host(), first.host()) : List.of(first.host(), h.host())));
            } else {
                lost.stream().filter(h -> h.node() / setSize * setSize == start).forEach(h -> inSet.add(h.host()));
            }
            if (inSet.size() >= 2) {
                return Optional.of(inSet);
            }
        }
        return Optional.empty();
    }
}
