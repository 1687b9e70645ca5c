package dev.lazarus.daemon.process;

import dev.lazarus.coordinator.state.JobState;
import dev.lazarus.daemon.DaemonSocket;
import dev.lazarus.daemon.l2.wire.Handshake;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.daemon.l2.wire.Link;
import dev.lazarus.store.JobId;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.settings.NodeName;
import dev.lazarus.store.settings.SettingSource;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * A node's daemon process: {@code NodeDaemonMain --job ID --secret FILE}. It listens on the node's {@link DaemonSocket}
 * for the node's ranks, which hand it their L2 work (mode {@code process}), and serves the job's L2 traffic with the
 * other nodes. It outlives the ranks of one launch and ends when its standard input closes (the {@code lazarus run}
 * that started it, directly or through the rsh agent, ended or let it go) or on SIGTERM, saying so in one line.
 * Node name and run directory come from the same settings the ranks read. With {@code --cluster-token} and its
 * companions it is also a member of the job's Hazelcast cluster ({@link ClusterMembership}) from before it says it is
 * ready until it stops, and watches its node's ranks ({@link RankWatch}).
 */
public final class NodeDaemonMain {
    /** The line it prints once it listens; {@code lazarus run} waits for it. */
    public static final String READY = "ready at ";
    private static final Set<String> OPTIONS = Set.of("--job", "--secret", "--cluster-token", "--cluster-join",
            "--cluster-port", "--net", "--state-dir");

    private NodeDaemonMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getProperties(), System.getenv(), System.in, System.out, System.err));
    }

    /** @return the exit status: 0 after a clean stop, 2 for bad arguments, 1 when it cannot serve */
    static int run(String[] args, Properties properties, Map<String, String> environment, InputStream stdin,
                   PrintStream out, PrintStream err) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!OPTIONS.contains(args[i])) {
                err.println("lazarus: node daemon: unknown argument " + args[i]);
                return 2;
            }
            options.put(args[i], args[i + 1]);
        }
        String job = options.get("--job");
        if (job == null || !options.containsKey("--secret") || args.length % 2 != 0) {
            err.println("lazarus: node daemon: usage: NodeDaemonMain --job ID --secret FILE [--cluster-token T"
                    + " --cluster-join HOST:PORT --cluster-port P --state-dir DIR [--net CIDR]]");
            return 2;
        }
        Path secretFile = Path.of(options.get("--secret"));
        String node;
        Path socket;
        JobSecret secret;
        ClusterMembership membership;
        try {
            JobId.check(job);
            membership = membership(options);
            SettingSource settings = new SettingSource(properties, environment);
            node = NodeName.of(settings);
            socket = DaemonSocket.of(DaemonSocket.runDirectory(settings), node, job);
            secret = JobSecret.load(secretFile);
        } catch (IOException | IllegalArgumentException e) {
            err.println("lazarus: node daemon: " + e.getMessage());
            return 2;
        }
        String name = "lazarus: node daemon " + node + " of job " + job;
        JobState state = null;
        RankWatch watch = null;
        try (ServerSocketChannel server = listen(socket);
             NodeDaemonService service = new NodeDaemonService(job, socket, secretFile.toAbsolutePath(),
                     line -> err.println(name + ": " + line))) {
            if (membership != null) {
                state = membership.start(job, node, err);
                watch = new RankWatch(state, node, line -> err.println(name + ": " + line)).start();
            }
            out.println(name + " " + READY + socket + (state == null ? ""
                    : ", a member of the job's cluster at " + state.address()));
            out.flush();
            Thread.ofPlatform().daemon().name("stdin-watch").start(() -> {
                awaitEnd(stdin);
                close(server);
            });
            Runtime.getRuntime().addShutdownHook(new Thread(() -> close(server)));
            acceptUntilClosed(server, service, secret, job.getBytes(StandardCharsets.US_ASCII), err, name);
            err.println(name + ": stopped");
            return 0;
        } catch (IOException | IllegalStateException e) {
            err.println(name + ": cannot serve: " + e.getMessage());
            return 1;
        } finally {
            if (watch != null) {
                watch.close();
            }
            if (state != null) {
                // Its partitions go to the other members first; the state directory has everything already.
                state.close();
            }
            try {
                Files.deleteIfExists(socket);
            } catch (IOException e) {
                // a stale socket is replaced by the next daemon
            }
        }
    }

    /** Binds the socket, 0600 in the user's own run directory (0700), replacing a stale one a killed daemon left. */
    private static ServerSocketChannel listen(Path socket) throws IOException {
        SecureFiles.createOwnDirectory(socket.getParent());
        SecureFiles.refuseLink(socket);
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
            return server;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static void acceptUntilClosed(ServerSocketChannel server, NodeDaemonService service, JobSecret secret,
                                          byte[] job, PrintStream err, String name) throws IOException {
        while (true) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return;
            }
            Thread.ofPlatform().name("rank-connection").start(() -> {
                try (channel) {
                    Handshake.asServer(new Link(channel, "rank"), secret, job);
                    service.serve(new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel))),
                            new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel))));
                } catch (IOException | RuntimeException e) {
                    err.println(name + ": a rank's connection ended: " + e.getMessage());
                }
            });
        }
    }

    /** @return how to join the job's cluster, or null when the daemon is not to be a member */
    private static ClusterMembership membership(Map<String, String> options) {
        String token = options.get("--cluster-token");
        if (token == null) {
            return null;
        }
        for (String required : List.of("--cluster-join", "--cluster-port", "--state-dir")) {
            if (!options.containsKey(required)) {
                throw new IllegalArgumentException("--cluster-token needs " + required);
            }
        }
        int port;
        try {
            port = Integer.parseInt(options.get("--cluster-port"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--cluster-port=" + options.get("--cluster-port") + " is not a number");
        }
        return new ClusterMembership(token, options.get("--cluster-join"), port, options.get("--net"),
                Path.of(options.get("--state-dir")));
    }

    private static void awaitEnd(InputStream stdin) {
        try {
            while (stdin.read() >= 0) {
                // nothing is said on standard input; its end is the signal
            }
        } catch (IOException e) {
            // closed: the same signal
        }
    }

    private static void close(ServerSocketChannel server) {
        try {
            server.close();
        } catch (IOException e) {
            // closing is all that was asked
        }
    }
}
