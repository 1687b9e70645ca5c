package dev.lazarus.daemon;

import dev.lazarus.store.level.l2.L2Scheme;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a rank tells the node daemon it opens.
 *
 * @param mode       which implementation ({@link NodeDaemonFactory#mode()}); {@value #EMBEDDED} runs it in the rank
 * @param job        the job id, already checked
 * @param daemonSocket where the node's daemon process listens ({@link DaemonSocket}); needed in {@code process}
 *                   mode only (null otherwise)
 * @param worldSize  ranks in the job, checked against the manifests the daemon reads
 * @param l1Root     the node's L1 root (the job's directory is under it)
 * @param secretFile the per-job secret the node's L2 peers authenticate with
 * @param setSize    nodes per L2 set
 * @param scheme     XOR parity or partner copies
 * @param bindHost   the address the L2 service listens on (an interface's, never a wildcard)
 * @param log        where one-line reports go
 */
public record NodeDaemonConfig(String mode, String job, Path daemonSocket, int worldSize, Path l1Root, Path secretFile, int setSize,
                               L2Scheme scheme, String bindHost, Consumer<String> log) {
    /** The daemon runs on threads of the node's leader rank. */
    public static final String EMBEDDED = "embedded";
    /** The daemon is a process of its own on the node, reached through {@link #daemonSocket()}. */
    public static final String PROCESS = "process";

    public NodeDaemonConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(job, "job");
        if (mode.equals(PROCESS)) {
            Objects.requireNonNull(daemonSocket, "daemonSocket");
        }
        Objects.requireNonNull(l1Root, "l1Root");
        Objects.requireNonNull(secretFile, "secretFile");
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(log, "log");
    }
}
