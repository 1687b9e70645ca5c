package dev.lazarus.daemon;

import java.io.IOException;

/**
 * Opens one kind of {@link NodeDaemon}. Implementations are found with {@link java.util.ServiceLoader} (listed in
 * {@code META-INF/services/dev.lazarus.daemon.NodeDaemonFactory}), so the ranks depend on this package only.
 */
public interface NodeDaemonFactory {
    /** @return the {@link NodeDaemonConfig#mode()} this factory serves */
    String mode();

    /**
     * Starts or connects to the node's daemon.
     *
     * @throws IOException              if it cannot be started or reached
     * @throws IllegalArgumentException if the configuration is unusable, one line naming the setting
     */
    NodeDaemon open(NodeDaemonConfig config) throws IOException;
}
