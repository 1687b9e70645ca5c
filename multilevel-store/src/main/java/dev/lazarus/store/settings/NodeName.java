package dev.lazarus.store.settings;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The name of the node a process runs on, as every Lazarus process of the node resolves it: {@code lazarus.ckpt.node}
 * ({@code LAZARUS_CKPT_NODE}), else {@code LAZARUS_HOST} (set per simulated host, which share the machine's host
 * name), else the host name. Ranks with the same name share L1; the node's daemon is found by it.
 */
public final class NodeName {
    /** The longest node name, in bytes; names travel between ranks in fixed-size slots of this size. */
    public static final int MAX_BYTES = 255;
    private static final Path KERNEL_HOSTNAME = Path.of("/proc/sys/kernel/hostname");

    private NodeName() {
    }

    /**
     * @return the node's name
     * @throws IllegalArgumentException one line when it is not 1 to {@value #MAX_BYTES} of [A-Za-z0-9._-], not dots
     *                                  only
     */
    public static String of(SettingSource source) {
        String node = source.text(Settings.CKPT_NODE).or(() -> source.environmentText("LAZARUS_HOST"))
                .orElseGet(NodeName::local);
        if (!node.matches("[A-Za-z0-9._-]{1," + MAX_BYTES + "}") || node.matches("\\.+")) {
            throw new IllegalArgumentException(Settings.CKPT_NODE.property() + "=" + node + " must be 1 to " + MAX_BYTES
                    + " of [A-Za-z0-9._-], not dots only");
        }
        return node;
    }

    /** @return the kernel's host name, else what the JDK resolves, else "localhost" */
    static String local() {
        try {
            String name = Files.readString(KERNEL_HOSTNAME).strip();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException e) {
            // not Linux: ask the JDK
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
