package dev.lazarus.daemon.process;

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
import java.util.Map;
import java.util.Properties;

/**
 * A node's daemon process: {@code NodeDaemonMain --job ID --secret FILE}. It listens on the node's {@link DaemonSocket}
 * for the node's ranks, which hand it their L2 work (mode {@code process}), and serves the job's L2 traffic with the
 * other nodes. It outlives the ranks of one launch and ends when its standard input closes (the {@code lazarus run}
 * that started it, directly or through the rsh agent, ended or let it go) or on SIGTERM, saying so in one line.
 * Node name and run directory come from the same settings the ranks read.
 */
public final class NodeDaemonMain {
    /** The line it prints once it listens; {@code lazarus run} waits for it. */
    public static final String READY = "ready at ";

    private NodeDaemonMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getProperties(), System.getenv(), System.in, System.out, System.err));
    }

    /** @return the exit status: 0 after a clean stop, 2 for bad arguments, 1 when it cannot serve */
    static int run(String[] args, Properties properties, Map<String, String> environment, InputStream stdin,
                   PrintStream out, PrintStream err) {
        String job = null;
        Path secretFile = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--job" -> job = args[i + 1];
                case "--secret" -> secretFile = Path.of(args[i + 1]);
                default -> {
                    err.println("lazarus: node daemon: unknown argument " + args[i]);
                    return 2;
                }
            }
        }
        if (job == null || secretFile == null || args.length % 2 != 0) {
            err.println("lazarus: node daemon: usage: NodeDaemonMain --job ID --secret FILE");
            return 2;
        }
        String node;
        Path socket;
        JobSecret secret;
        try {
            JobId.check(job);
            SettingSource settings = new SettingSource(properties, environment);
            node = NodeName.of(settings);
            socket = DaemonSocket.of(DaemonSocket.runDirectory(settings), node, job);
            secret = JobSecret.load(secretFile);
        } catch (IOException | IllegalArgumentException e) {
            err.println("lazarus: node daemon: " + e.getMessage());
            return 2;
        }
        String name = "lazarus: node daemon " + node + " of job " + job;
        try (ServerSocketChannel server = listen(socket);
             NodeDaemonService service = new NodeDaemonService(job, socket, secretFile.toAbsolutePath(),
                     line -> err.println(name + ": " + line))) {
            out.println(name + " " + READY + socket);
            out.flush();
            Thread.ofPlatform().daemon().name("stdin-watch").start(() -> {
                awaitEnd(stdin);
                close(server);
            });
            Runtime.getRuntime().addShutdownHook(new Thread(() -> close(server)));
            acceptUntilClosed(server, service, secret, job.getBytes(StandardCharsets.US_ASCII), err, name);
            err.println(name + ": stopped");
            return 0;
        } catch (IOException e) {
            err.println(name + ": cannot serve: " + e.getMessage());
            return 1;
        } finally {
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
