package dev.lazarus.daemon.l2;

import dev.lazarus.daemon.l2.server.Acceptor;
import dev.lazarus.daemon.l2.server.ConnectionHandler;
import dev.lazarus.daemon.l2.server.PayloadTableCache;
import dev.lazarus.daemon.l2.wire.IdleWatchdog;
import dev.lazarus.daemon.l2.wire.Link;
import dev.lazarus.store.agent.AgentRunner;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A node's L2 server: it serves the members of its XOR set this node's payload tables, parity manifests, and byte
 * ranges of its payloads and parity, read from its L1 directory. It listens on the configured address only (a
 * wildcard needs explicit permission), authenticates every connection both ways with the job's secret, and serves
 * each connection on its own thread. Anything malformed closes the connection with one logged line.
 */
public final class L2Server implements AutoCloseable {
    private final L2Context context;
    private final ServerSocketChannel channel;
    private final IdleWatchdog watchdog;
    private final PayloadTableCache tables;
    private final Acceptor acceptor;
    private final AgentRunner acceptorRunner;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final byte[] job;

    private L2Server(L2Context context, ServerSocketChannel channel) throws IOException {
        this.context = context;
        this.channel = channel;
        this.job = context.job().getBytes(StandardCharsets.US_ASCII);
        this.tables = new PayloadTableCache(context.l1());
        this.watchdog = IdleWatchdog.start(context.ioTimeoutMillis(), context.log());
        this.acceptor = new Acceptor(channel, this::accepted);
        Consumer<String> log = context.log();
        this.acceptorRunner = new AgentRunner(acceptor, TimeUnit.MILLISECONDS.toNanos(1),
                e -> log.accept("l2: accept failed: " + e.getMessage()));
    }

    /**
     * Binds to {@link L2Context#bindAddress()} and starts serving.
     *
     * @param context a concluded context with a bind address
     * @throws IOException if the address cannot be bound, with the address
     */
    public static L2Server start(L2Context context) throws IOException {
        InetSocketAddress address = context.bindAddress();
        ServerSocketChannel channel = ServerSocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(address, 128);
            L2Server server = new L2Server(context, channel);
            server.acceptorRunner.start();
            return server;
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot listen: address=" + Endpoints.format(address) + " reason="
                    + e.getMessage(), e);
        }
    }

    /** @return the bound address, with the port chosen when the configured port was 0 */
    public InetSocketAddress address() throws IOException {
        return (InetSocketAddress) channel.getLocalAddress();
    }

    /** @return connections being served now */
    public int connections() {
        return links.size();
    }

    private void accepted(SocketChannel accepted) {
        String peer;
        try {
            accepted.setOption(StandardSocketOptions.TCP_NODELAY, true);
            peer = Endpoints.format((InetSocketAddress) accepted.getRemoteAddress());
        } catch (IOException e) {
            close(accepted);
            return;
        }
        if (links.size() >= context.maxConnections()) {
            context.log().accept("l2: refused peer=" + peer + " reason=too many connections, max="
                    + context.maxConnections());
            close(accepted);
            return;
        }
        Link link = new Link(accepted, peer);
        links.add(link);
        watchdog.watch(link);
        Runnable onEnd = () -> {
            watchdog.forget(link);
            links.remove(link);
        };
        // A platform thread, not a virtual one: sendfile on a virtual thread's socket (non-blocking underneath)
        // returns at once when the socket buffer is full, and FileChannel.transferTo then spins without parking,
        // starving the other connections' virtual threads of carriers. Connections are few (the set's members).
        Thread.ofPlatform().daemon().name("l2-" + peer).start(new ConnectionHandler(link, context.l1(),
                context.secret(), job, tables, context.log(), onEnd));
    }

    private static void close(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing was served on it.
        }
    }

    /** Stops accepting, closes every connection (their handlers end) and the watchdog. */
    @Override
    public void close() {
        acceptor.wakeup();
        acceptorRunner.close();
        try {
            channel.close();
        } catch (IOException e) {
            // The listening socket is gone either way.
        }
        links.forEach(Link::close);
        watchdog.close();
    }
}
