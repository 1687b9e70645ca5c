package dev.lazarus.daemon.process;

import dev.lazarus.daemon.L2Membership;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.RebuildOutcome;
import dev.lazarus.daemon.embedded.EmbeddedNodeDaemon;
import dev.lazarus.daemon.l2.wire.ProtocolException;
import dev.lazarus.store.agent.BackgroundPriority;
import dev.lazarus.store.level.l2.L2Scheme;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The daemon process's side of its ranks' requests: one {@link EmbeddedNodeDaemon} (the node's L2 service, encoding,
 * L3 draining and rebuilds) per job, started by the first rank that opens it and kept across the job's launches, so
 * the service outlives the ranks of one launch. Requests run one at a time, whatever the connection: an encode or a
 * drain a rank asked for is finished even when that rank dies meanwhile, before the next launch's leader is answered.
 * L3 drains run on a thread at background priority (niceness 19, idle I/O class); encodes run at normal priority,
 * since the ranks' next checkpoint waits for them.
 */
final class NodeDaemonService implements AutoCloseable {
    private final String job;
    private final Path socket;
    private final Path secretFile;
    private final Consumer<String> log;
    /** L3 drains, which yield the node's cores and disk to its ranks; encodes and rebuilds, awaited, do not. */
    private final ExecutorService background = Executors.newSingleThreadExecutor(this::backgroundThread);
    private EmbeddedNodeDaemon daemon;
    private NodeDaemonConfig config;

    NodeDaemonService(String job, Path socket, Path secretFile, Consumer<String> log) {
        this.job = job;
        this.socket = socket;
        this.secretFile = secretFile;
        this.log = log;
    }

    /** Answers one connection's requests until the rank closes it. */
    void serve(DataInputStream in, DataOutputStream out) throws IOException {
        while (true) {
            int op;
            try {
                op = in.readInt();
            } catch (EOFException e) {
                return; // the rank closed the connection between requests
            }
            Object result;
            try {
                result = answer(op, in);
            } catch (IOException | RuntimeException e) {
                if (e instanceof ProtocolException || e instanceof EOFException) {
                    throw e;
                }
                out.writeByte(DaemonWire.ERROR);
                String message = String.valueOf(e.getMessage());
                DaemonWire.writeString(out, message.length() > 1000 ? message.substring(0, 1000) + "..." : message);
                out.flush();
                continue;
            }
            out.writeByte(DaemonWire.OK);
            write(out, result);
            out.flush();
        }
    }

    private Object answer(int op, DataInputStream in) throws IOException {
        return switch (op) {
            case DaemonWire.OPEN -> open(in.readInt(), in.readInt(), in.readByte(), DaemonWire.readString(in),
                    DaemonWire.readString(in));
            case DaemonWire.JOIN -> {
                int count = DaemonWire.count(in, DaemonWire.MAX_COUNT, "endpoint count");
                List<String> endpoints = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    endpoints.add(DaemonWire.readString(in));
                }
                yield join(endpoints, in.readInt());
            }
            case DaemonWire.SUBMIT -> submit(in.readLong());
            case DaemonWire.DRAIN_L3 -> {
                long version = in.readLong();
                String l3Root = DaemonWire.readString(in);
                boolean direct = in.readByte() != 0;
                int count = DaemonWire.count(in, DaemonWire.MAX_COUNT, "rank count");
                List<Integer> ranks = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    ranks.add(in.readInt());
                }
                yield drainToL3(version, ranks, l3Root, direct);
            }
            case DaemonWire.REBUILD -> rebuild(in.readLong());
            case DaemonWire.PRUNE -> call(in.readLong(), (d, v) -> d.pruneOlderThan(v));
            case DaemonWire.FORGET -> call(in.readLong(), (d, v) -> d.forgetNewerThan(v));
            case DaemonWire.RELEASE -> call(0, (d, v) -> d.release());
            default -> throw new ProtocolException("node daemon request op=" + op + " is unknown");
        };
    }

    private synchronized String open(int worldSize, int setSize, byte scheme, String l1Root, String bindHost)
            throws IOException {
        NodeDaemonConfig wanted = new NodeDaemonConfig(NodeDaemonConfig.EMBEDDED, job, socket, worldSize,
                Path.of(l1Root), secretFile, setSize, scheme == 1 ? L2Scheme.PARTNER : L2Scheme.XOR, bindHost, log);
        if (daemon != null && !same(config, wanted)) {
            daemon.close();
            daemon = null;
        }
        if (daemon == null) {
            daemon = EmbeddedNodeDaemon.start(wanted);
            config = wanted;
            log.accept("L2 service of job " + job + " at " + daemon.l2Endpoint());
        }
        return daemon.l2Endpoint();
    }

    private static boolean same(NodeDaemonConfig a, NodeDaemonConfig b) {
        return a.worldSize() == b.worldSize() && a.setSize() == b.setSize() && a.scheme() == b.scheme()
                && a.l1Root().equals(b.l1Root()) && a.bindHost().equals(b.bindHost());
    }

    private synchronized L2Membership join(List<String> endpoints, int self) {
        return opened().joinL2(endpoints, self);
    }

    private synchronized Long submit(long version) throws IOException {
        // At normal priority: the ranks' next checkpoint waits for this encode (the set's other nodes keep a version
        // only that long), so a background encode made MG class A 5-10% slower than the same work in the ranks.
        return opened().submit(version);
    }

    private synchronized Long drainToL3(long version, List<Integer> ranks, String l3Root, boolean direct)
            throws IOException {
        Path root = Path.of(l3Root);
        if (!root.isAbsolute() || !root.normalize().equals(root)) {
            throw new IllegalArgumentException("L3 root " + l3Root + " is not an absolute, normalized path");
        }
        EmbeddedNodeDaemon opened = opened();
        return inBackground(() -> opened.drainToL3(version, ranks, root, direct));
    }

    /**
     * Runs {@code work} on the background thread and waits for it, whatever happens to the connection that asked:
     * the caller holds the service's lock throughout, so the next request (the next launch's, say) is answered only
     * after it.
     */
    private <T> T inBackground(Callable<T> work) throws IOException {
        Future<T> result = background.submit(work);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return result.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the work goes on, and so does the wait: nothing else may run meanwhile
                }
            }
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case RuntimeException runtime -> throw runtime;
                default -> throw new IOException(e.getCause());
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The one thread that drains to L3, at background priority (said once, when it starts). */
    private Thread backgroundThread(Runnable worker) {
        return Thread.ofPlatform().daemon().name("background-work").unstarted(() -> {
            log.accept("drains to L3 at background priority: " + BackgroundPriority.lowerCurrentThread());
            worker.run();
        });
    }

    private synchronized RebuildOutcome rebuild(long version) {
        return opened().rebuild(version);
    }

    private interface Call {
        void on(EmbeddedNodeDaemon daemon, long version);
    }

    private synchronized Void call(long version, Call call) {
        call.on(opened(), version);
        return null;
    }

    private EmbeddedNodeDaemon opened() {
        if (daemon == null) {
            throw new IllegalStateException("node daemon of job=" + job + " was not opened: OPEN first");
        }
        return daemon;
    }

    private static void write(DataOutputStream out, Object result) throws IOException {
        switch (result) {
            case String endpoint -> DaemonWire.writeString(out, endpoint);
            case L2Membership set -> {
                out.writeByte(set.scheme() == L2Scheme.PARTNER ? 1 : 0);
                out.writeInt(set.setId());
                out.writeInt(set.member());
                out.writeInt(set.size());
            }
            case Long bytes -> out.writeLong(bytes);
            case RebuildOutcome outcome -> {
                out.writeInt(outcome.rebuilt().size());
                for (long version : outcome.rebuilt()) {
                    out.writeLong(version);
                }
                out.writeLong(outcome.failedVersion());
                out.writeByte(outcome.failure() == null ? 0 : 1);
                if (outcome.failure() != null) {
                    DaemonWire.writeString(out, outcome.failure());
                }
            }
            case null -> { }
            default -> throw new IllegalStateException("no wire form for " + result);
        }
    }

    /** Stops the L2 service, once no other node has used it for a moment. */
    @Override
    public synchronized void close() {
        background.shutdown();
        if (daemon != null) {
            daemon.close();
            daemon = null;
        }
    }
}
