package dev.lazarus.daemon;

import com.sun.security.auth.module.UnixSystem;
import dev.lazarus.store.settings.SettingSource;
import dev.lazarus.store.settings.Settings;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Where a node's daemon process listens for the node's ranks: a Unix domain socket {@code <run dir>/<node>.<job>.daemon}.
 * The run directory ({@code lazarus.run.dir}, default {@code /tmp/lazarus-<uid>}) is node-local and the user's own
 * (0700, checked by the daemon); the node's name is in the file name because simulated hosts share one {@code /tmp}.
 */
public final class DaemonSocket {
    /** A Unix socket's path limit (sun_path), less its terminating NUL. */
    static final int MAX_PATH_BYTES = 107;

    private DaemonSocket() {
    }

    /** @return the run directory the settings name, else {@code /tmp/lazarus-<uid>} */
    public static Path runDirectory(SettingSource source) {
        return source.text(Settings.RUN_DIR).map(Path::of)
                .orElseGet(() -> Path.of("/tmp", "lazarus-" + new UnixSystem().getUid())).toAbsolutePath();
    }

    /**
     * @return the socket of {@code node}'s daemon of {@code job}
     * @throws IllegalArgumentException when the path is too long for a Unix socket, naming the setting to change
     */
    public static Path of(Path runDirectory, String node, String job) {
        Path socket = runDirectory.resolve(node + "." + job + ".daemon");
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            throw new IllegalArgumentException("node daemon socket " + socket + " is longer than " + MAX_PATH_BYTES
                    + " bytes, a Unix socket's limit: set " + Settings.RUN_DIR.environment() + " to a shorter"
                    + " directory");
        }
        return socket;
    }
}
