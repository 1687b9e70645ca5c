package dev.lazarus.daemon.embedded;

import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.NodeDaemonFactory;

import java.io.IOException;

/** Serves {@link NodeDaemonConfig#EMBEDDED}: the daemon on threads of the node's leader rank. */
public final class EmbeddedNodeDaemonFactory implements NodeDaemonFactory {
    @Override
    public String mode() {
        return NodeDaemonConfig.EMBEDDED;
    }

    @Override
    public NodeDaemon open(NodeDaemonConfig config) throws IOException {
        return EmbeddedNodeDaemon.start(config);
    }
}
