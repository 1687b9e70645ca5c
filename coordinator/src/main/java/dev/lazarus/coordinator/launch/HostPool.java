package dev.lazarus.coordinator.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The hosts of a multi-host job across its launches. After a failed launch it finds the nodes that were lost: those
 * that no longer answer ({@link HostProbe}), and those whose node daemon ended (a daemon outlives its node's ranks, so
 * its end means the node went down with them; its RAM disk and NVM are not trusted). Before the next launch each
 * unreachable node is replaced by a spare ({@code --spares}) in its place in the host file, with its settings, so the
 * spare's ranks are the lost node's and its place in the L2 sets the same: they rebuild their L1 files from the set.
 * When the spares do not cover every unreachable node, those nodes leave the host file and their ranks run on the
 * nodes left (several ranks to a slot: the launcher oversubscribes); the L2 sets then change, so no set rebuilds the
 * moved ranks' files, which come from L3 (or the run starts again).
 */
public final class HostPool implements AutoCloseable {
    private final List<HostsFile.Entry> hosts;
    private final Deque<HostsFile.Entry> spares;
    private final HostProbe probe;
    private final NodeDaemonProcesses daemons;
    private final L2Sets sets;
    private final PrintStream err;
    private Path written;

    /**
     * @param hosts   the host file's hosts
     * @param spares  the spare hosts, in the order they are taken
     * @param daemons the job's node daemon processes, or null when the ranks run the nodes' work
     * @param sets    how the nodes form L2 sets ({@link L2Sets#NONE} without L2)
     */
    public HostPool(List<HostsFile.Entry> hosts, List<HostsFile.Entry> spares, HostProbe probe,
                    NodeDaemonProcesses daemons, L2Sets sets, PrintStream err) {
        this.hosts = new ArrayList<>(hosts);
        this.spares = new ArrayDeque<>(spares);
        this.probe = probe;
        this.daemons = daemons;
        this.sets = sets;
        this.err = err;
    }

    /** @throws IllegalArgumentException one line when a spare is also one of the job's hosts, or listed twice */
    public static void checkSpares(List<HostsFile.Entry> hosts, List<HostsFile.Entry> spares) {
        Set<String> seen = new TreeSet<>();
        hosts.forEach(h -> seen.add(h.host()));
        for (HostsFile.Entry spare : spares) {
            if (!seen.add(spare.host())) {
                throw new IllegalArgumentException("--spares: host " + spare.host() + " is "
                        + (hosts.stream().anyMatch(h -> h.host().equals(spare.host())) ? "one of the job's hosts"
                                : "listed twice") + "; a spare must be a host the job does not use");
            }
        }
    }

    /** @return the job's hosts now, in host file order, spares in lost ones' places */
    public List<String> nodes() {
        return hosts.stream().map(HostsFile.Entry::host).toList();
    }

    /** @return the spare hosts not taken yet */
    public int sparesLeft() {
        return spares.size();
    }

    /** Finds the nodes the last launch lost; says each on one line. */
    public HostLoss survey() {
        List<String> names = hosts.stream().map(HostsFile.Entry::host).toList();
        Map<String, String> unreachable = probe.unreachable(names);
        Set<Integer> ended = daemons == null ? Set.of() : Set.copyOf(daemons.ended());
        List<HostLoss.LostHost> lost = new ArrayList<>();
        for (int node = 0; node < names.size(); node++) {
            String host = names.get(node);
            if (unreachable.containsKey(host)) {
                lost.add(new HostLoss.LostHost(node, host, false, "does not answer (" + unreachable.get(host) + ")"));
            } else if (ended.contains(node)) {
                lost.add(new HostLoss.LostHost(node, host, true, "answers, but its node daemon ended with the ranks:"
                        + " the node went down, so its RAM disk and NVM are not trusted"));
            }
        }
        lost.forEach(h -> err.println("lazarus: node " + h.host() + " was lost: it " + h.how()));
        return new HostLoss(lost, sets.setSize(), sets.scheme(), hosts.size());
    }

    /**
     * @return whether the job can go on after {@code loss}: a spare is left for every unreachable node, or some node is
     *         left to run their ranks; said in one line when not
     */
    public boolean replaceable(HostLoss loss) {
        int gone = loss.unreachable().size();
        if (gone > spares.size() && gone >= hosts.size()) {
            err.println("lazarus: " + gone + " node(s) do not answer, " + (spares.isEmpty() ? "no"
                    : "only " + spares.size()) + " spare host(s) are left (--spares) and no other node is left");
            return false;
        }
        return true;
    }

    /**
     * @return whether the next launch runs the unreachable nodes' ranks on the nodes left, for want of spares: then
     *         the L2 sets change and no set rebuilds those ranks' files
     */
    public boolean movesRanks(HostLoss loss) {
        int gone = loss.unreachable().size();
        return gone > spares.size() && gone < hosts.size();
    }

    /**
     * Puts a spare in each unreachable node's place for the next launch.
     *
     * @param plan    the last launch's plan
     * @param planner plans a launch ({@link JobLauncher#plan})
     * @return the next launch's plan ({@code plan} when nothing was replaced), or empty when a node is unreachable
     *         and no spare is left
     */
    public Optional<LaunchPlan> replaceUnreachable(LaunchPlan plan, HostLoss loss,
                                                   Function<LaunchRequest, LaunchPlan> planner) throws IOException {
        List<HostLoss.LostHost> gone = loss.unreachable();
        if (gone.isEmpty()) {
            return Optional.of(plan);
        }
        if (!replaceable(loss)) {
            return Optional.empty();
        }
        if (movesRanks(loss)) {
            return Optional.of(planner.apply(plan.request().onHosts(withoutUnreachable(gone))));
        }
        for (HostLoss.LostHost lost : gone) {
            HostsFile.Entry spare = spares.removeFirst();
            hosts.set(lost.node(), hosts.get(lost.node()).replacedBy(spare));
            if (daemons != null) {
                daemons.replace(lost.node(), spare.host());
            }
            err.println("lazarus: node " + lost.host() + " is replaced by spare " + spare.host() + " (host "
                    + (lost.node() + 1) + " of " + hosts.size() + "): its ranks start there"
                    + (sets.setSize() > 0 ? " and rebuild their L1 files from L2" : "") + "; " + spares.size()
                    + " spare(s) left");
        }
        return Optional.of(planner.apply(plan.request().onHosts(write())));
    }

    /** Takes the unreachable nodes out of the host file (and stops their daemons); says so. @return the host file */
    private Path withoutUnreachable(List<HostLoss.LostHost> gone) throws IOException {
        List<HostLoss.LostHost> highestFirst = new ArrayList<>(gone);
        highestFirst.sort((a, b) -> Integer.compare(b.node(), a.node()));
        for (HostLoss.LostHost lost : highestFirst) {
            hosts.remove(lost.node());
            if (daemons != null) {
                daemons.drop(lost.node());
            }
        }
        err.println("lazarus: " + (gone.size() == 1 ? "node " + gone.getFirst().host() + " does"
                : "nodes " + gone.stream().map(HostLoss.LostHost::host).toList() + " do") + " not answer and "
                + (spares.isEmpty() ? "no" : "only " + spares.size()) + " spare host(s) are left: the job runs on the "
                + hosts.size() + " node(s) left, its ranks " + (sets.setSize() > 0 ? "restoring from L3 (the L2 sets"
                + " change, so none rebuilds the moved ranks' files)" : "sharing their slots"));
        return write();
    }

    private Path write() throws IOException {
        StringBuilder text = new StringBuilder("# written by lazarus run: the job's hosts, lost ones replaced by"
                + " spares\n");
        hosts.forEach(h -> text.append(h.line()).append('\n'));
        // Files.createTempFile makes it 0600 on POSIX file systems.
        Path file = Files.createTempFile("lazarus-hosts-", ".txt");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Path old = written;
        written = file;
        if (old != null) {
            Files.deleteIfExists(old);
        }
        return file;
    }

    /** Deletes the host file it wrote. */
    @Override
    public void close() throws IOException {
        if (written != null) {
            Files.deleteIfExists(written);
        }
    }
}
