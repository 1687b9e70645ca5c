package dev.lazarus.daemon.process;

import dev.lazarus.daemon.NodeDaemon;
import dev.lazarus.daemon.NodeDaemonConfig;
import dev.lazarus.daemon.NodeDaemonFactory;

import java.io.IOException;

/** Serves {@link NodeDaemonConfig#PROCESS}: the node's daemon process, reached through its Unix socket. */
public final class ProcessNodeDaemonFactory implements NodeDaemonFactory {
    @Override
    public String mode() {
        return NodeDaemonConfig.PROCESS;
    }

    @Override
    public NodeDaemon open(NodeDaemonConfig config) throws IOException {
        return ProcessNodeDaemon.open(config);
    }
}
