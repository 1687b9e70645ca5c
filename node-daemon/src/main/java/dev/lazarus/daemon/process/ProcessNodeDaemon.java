package dev.lazarus.daemon.process;

import dev.lazarus.daemon.L2Membership;
import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.NodeDaemonGoneException;
import dev.lazarus.daemon.RebuildOutcome;
import dev.lazarus.daemon.l2.wire.Handshake;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.daemon.l2.wire.Link;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.catalog.VersionStatus;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.L2Scheme;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

/**
 * The node daemon as a rank reaches it in {@code process} mode: every call goes over the daemon process's Unix socket
 * ({@link DaemonSocket}) after the job's handshake, and the daemon does the work ({@link NodeDaemonService}); only
 * {@link #holdings()}, a read of the node's L1, is done here. A call the daemon cannot answer (it died) throws.
 */
final class ProcessNodeDaemon implements NodeDaemon {
    private final NodeDaemonConfig config;
    private final SocketChannel channel;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String endpoint;
    /** Whether the connection to the daemon broke: said once. */
    private boolean daemonGone;

    private ProcessNodeDaemon(NodeDaemonConfig config, SocketChannel channel) throws IOException {
        this.config = config;
        this.channel = channel;
        this.in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
        this.out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)));
        out.writeInt(DaemonWire.OPEN);
        out.writeInt(config.worldSize());
        out.writeInt(config.setSize());
        out.writeByte(config.scheme() == L2Scheme.PARTNER ? 1 : 0);
        DaemonWire.writeString(out, config.l1Root().toString());
        DaemonWire.writeString(out, config.bindHost());
        answered();
        this.endpoint = DaemonWire.readString(in);
    }

    /**
     * Connects to the node's daemon process and has it start (or reuse) the node's L2 service.
     *
     * @throws IOException when no daemon listens on the node's socket, or it fails the handshake or the open
     */
    static ProcessNodeDaemon open(NodeDaemonConfig config) throws IOException {
        if (!Files.exists(config.daemonSocket(), LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("no node daemon of job " + config.job() + " listens at " + config.daemonSocket()
                    + " (lazarus run --node-daemon process starts one on every node)");
        }
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(config.daemonSocket()));
            Handshake.asClient(new Link(channel, "node daemon at " + config.daemonSocket()),
                    JobSecret.load(config.secretFile()), config.job().getBytes(StandardCharsets.US_ASCII));
            return new ProcessNodeDaemon(config, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Sends the request just written and reads its status: the result follows, or the daemon's one line is thrown. */
    private void answered() throws IOException {
        out.flush();
        if (in.readByte() != DaemonWire.OK) {
            throw new DaemonRefusedException(DaemonWire.readString(in));
        }
    }

    /** The daemon could not do what was asked: its one line. */
    static final class DaemonRefusedException extends IOException {
        DaemonRefusedException(String message) {
            super(message);
        }
    }

    @Override
    public String l2Endpoint() {
        return endpoint;
    }

    @Override
    public synchronized L2Membership joinL2(List<String> endpoints, int self) {
        try {
            out.writeInt(DaemonWire.JOIN);
            out.writeInt(endpoints.size());
            for (String member : endpoints) {
                DaemonWire.writeString(out, member);
            }
            out.writeInt(self);
            answered();
            L2Scheme scheme = in.readByte() == 1 ? L2Scheme.PARTNER : L2Scheme.XOR;
            return new L2Membership(scheme, in.readInt(), in.readInt(), in.readInt());
        } catch (DaemonRefusedException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized long submit(long version) throws IOException {
        out.writeInt(DaemonWire.SUBMIT);
        out.writeLong(version);
        answered();
        return in.readLong();
    }

    @Override
    public synchronized long drainToL3(long version, List<Integer> ranks, Path l3Root, boolean direct)
            throws IOException {
        try {
            out.writeInt(DaemonWire.DRAIN_L3);
            out.writeLong(version);
            DaemonWire.writeString(out, l3Root.toAbsolutePath().toString());
            out.writeByte(direct ? 1 : 0);
            out.writeInt(ranks.size());
            for (int rank : ranks) {
                out.writeInt(rank);
            }
            answered();
            return in.readLong();
        } catch (DaemonRefusedException e) {
            throw e;
        } catch (IOException e) {
            throw new NodeDaemonGoneException("the node daemon of job " + config.job() + " at "
                    + config.daemonSocket() + " did not answer: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized RebuildOutcome rebuild(long version) {
        try {
            out.writeInt(DaemonWire.REBUILD);
            out.writeLong(version);
            answered();
            int count = DaemonWire.count(in, DaemonWire.MAX_COUNT, "rebuilt count");
            TreeSet<Long> rebuilt = new TreeSet<>();
            for (int i = 0; i < count; i++) {
                rebuilt.add(in.readLong());
            }
            long failed = in.readLong();
            String failure = in.readByte() == 0 ? null : DaemonWire.readString(in);
            return new RebuildOutcome(rebuilt, failed, failure);
        } catch (IOException | RuntimeException e) {
            return RebuildOutcome.failed(new TreeSet<>(), version, "node daemon: " + e.getMessage());
        }
    }

    @Override
    public List<VersionStatus> holdings() throws IOException {
        return new Catalog(new CheckpointDirectory(config.l1Root(), config.job()), true).scan(false);
    }

    @Override
    public void pruneOlderThan(long newest) {
        send(DaemonWire.PRUNE, newest, "pruning");
    }

    @Override
    public void forgetNewerThan(long restored) {
        send(DaemonWire.FORGET, restored, "forgetting");
    }

    @Override
    public void release() {
        send(DaemonWire.RELEASE, 0, "releasing");
    }

    private synchronized void send(int op, long version, String what) {
        try {
            out.writeInt(op);
            if (op != DaemonWire.RELEASE) {
                out.writeLong(version);
            }
            answered();
        } catch (IOException e) {
            // A daemon that refused says why each time; one that died fails every request after, said once.
            boolean gone = !(e instanceof DaemonRefusedException);
            if (!gone || !daemonGone) {
                daemonGone |= gone;
                config.log().accept("node daemon of job " + config.job() + ": " + what + " L2 files failed: "
                        + e.getMessage() + (gone ? " (the daemon is gone: this node's L2 work stops until the next"
                                + " launch)" : ""));
            }
        }
    }

    /** Closes this rank's connection; the daemon and its L2 service go on serving the job. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to tell the daemon
        }
    }
}
