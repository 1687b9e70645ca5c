package dev.lazarus.daemon.l2.server;

import dev.lazarus.store.agent.Agent;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * Accepts connections on the server socket, as an agent: each call waits up to {@value #SELECT_MILLIS} ms for
 * connections, hands every accepted one (in blocking mode) to the handler, and returns how many it accepted.
 */
public final class Acceptor implements Agent {
    private static final long SELECT_MILLIS = 100;

    private final ServerSocketChannel server;
    private final Selector selector;
    private final Consumer<SocketChannel> handler;

    /** @param server a bound server channel; it is switched to non-blocking mode */
    public Acceptor(ServerSocketChannel server, Consumer<SocketChannel> handler) throws IOException {
        this.server = server;
        this.selector = Selector.open();
        this.handler = handler;
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
    }

    @Override
    public int doWork() throws IOException {
        if (!server.isOpen()) {
            return 0;
        }
        selector.select(SELECT_MILLIS);
        selector.selectedKeys().clear();
        int accepted = 0;
        SocketChannel channel;
        while (server.isOpen() && (channel = server.accept()) != null) {
            channel.configureBlocking(true);
            handler.accept(channel);
            accepted++;
        }
        return accepted;
    }

    /** Makes a waiting {@link #doWork} return at once: call before stopping the runner. */
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public String roleName() {
        return "l2-acceptor";
    }

    @Override
    public void onClose() {
        try {
            selector.close();
        } catch (IOException e) {
            // Closing a selector only releases its descriptor.
        }
    }
}
