package dev.lazarus.daemon;

import java.io.IOException;
import java.util.ServiceLoader;
import java.util.TreeSet;

/** Finds the {@link NodeDaemonFactory} a configuration names. */
public final class NodeDaemons {
    private NodeDaemons() {
    }

    /**
     * @return the node's daemon, of the kind {@code config.mode()} names
     * @throws IllegalArgumentException if no factory serves that mode, naming the ones that exist
     * @throws IOException              if the daemon cannot be started or reached
     */
    public static NodeDaemon open(NodeDaemonConfig config) throws IOException {
        TreeSet<String> known = new TreeSet<>();
        for (NodeDaemonFactory factory : ServiceLoader.load(NodeDaemonFactory.class,
                NodeDaemonFactory.class.getClassLoader())) {
            if (factory.mode().equals(config.mode())) {
                return factory.open(config);
            }
            known.add(factory.mode());
        }
        throw new IllegalArgumentException("node daemon mode=" + config.mode() + " is unknown; known: " + known);
    }
}
