package dev.lazarus.daemon.l2.client;

import dev.lazarus.daemon.l2.wire.IdleWatchdog;
import dev.lazarus.daemon.l2.wire.JobSecret;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntPredicate;

/**
 * Authenticated connections to the members of one L2 set, opened in parallel; a member that cannot be reached is
 * recorded with its reason rather than thrown, so the caller can tell one lost member from two.
 */
public final class SetConnections implements AutoCloseable {
    private final PeerConnection[] connections;
    private final String[] failures;

    private SetConnections(PeerConnection[] connections, String[] failures) {
        this.connections = connections;
        this.failures = failures;
    }

    /**
     * @param names     the members' configured addresses, for messages
     * @param addresses the members' addresses
     * @param skip      a member not to connect to, or -1
     */
    public static SetConnections open(List<String> names, List<InetSocketAddress> addresses, int skip,
                                      JobSecret secret, String job, int connectMillis, IdleWatchdog watchdog) {
        return open(names, addresses, m -> m != skip, secret, job, connectMillis, watchdog);
    }

    /**
     * @param wanted which members to connect to; the others are neither connected nor failed
     * @see #open(List, List, int, JobSecret, String, int, IdleWatchdog)
     */
    public static SetConnections open(List<String> names, List<InetSocketAddress> addresses, IntPredicate wanted,
                                      JobSecret secret, String job, int connectMillis, IdleWatchdog watchdog) {
        int n = names.size();
        PeerConnection[] connections = new PeerConnection[n];
        String[] failures = new String[n];
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<PeerConnection>> pending = new java.util.ArrayList<>(n);
            for (int m = 0; m < n; m++) {
                int member = m;
                pending.add(!wanted.test(m) ? null : executor.submit(() -> PeerConnection.open(addresses.get(member),
                        names.get(member), secret, job, connectMillis, watchdog)));
            }
            for (int m = 0; m < n; m++) {
                if (pending.get(m) == null) {
                    continue;
                }
                try {
                    connections[m] = pending.get(m).get();
                } catch (ExecutionException e) {
                    failures[m] = e.getCause().getMessage();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failures[m] = "interrupted";
                }
            }
        }
        return new SetConnections(connections, failures);
    }

    /** @return the connection to {@code member}, or null if it failed or was skipped */
    public PeerConnection get(int member) {
        return connections[member];
    }

    /** @return why {@code member} could not be reached, or null */
    public String failure(int member) {
        return failures[member];
    }

    /** Records that {@code member} turned out unusable, and closes its connection. */
    public void fail(int member, String reason) {
        if (connections[member] != null) {
            connections[member].close();
            connections[member] = null;
        }
        failures[member] = reason;
    }

    /**
     * @throws IOException naming every member that could not be reached, if any
     */
    public void requireAll(String what) throws IOException {
        StringBuilder problems = new StringBuilder();
        for (int m = 0; m < failures.length; m++) {
            if (failures[m] != null) {
                problems.append(problems.isEmpty() ? "" : "; ").append("member ").append(m).append(": ")
                        .append(failures[m]);
            }
        }
        if (!problems.isEmpty()) {
            throw new IOException(what + ": " + problems);
        }
    }

    @Override
    public void close() {
        Arrays.stream(connections).filter(c -> c != null).forEach(PeerConnection::close);
    }
}
