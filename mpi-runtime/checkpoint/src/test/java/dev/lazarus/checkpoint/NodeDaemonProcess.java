package dev.lazarus.checkpoint;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.daemon.process.NodeDaemonMain;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.settings.Settings;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/** A real node daemon process of one node, started as {@code lazarus run} would, for tests of the ranks' side. */
final class NodeDaemonProcess implements AutoCloseable {
    private final Process process;

    private NodeDaemonProcess(Process process) {
        this.process = process;
    }

    /**
     * @return settings of job {@code job} on node0 of one node, everything under {@code dir} (L1 in l1, L3 in pfs,
     *         the daemons' sockets in run, the secret in secret), L3 every {@code pfsEvery} versions keeping
     *         {@code pfsKeep}, with node daemons in mode {@code mode}
     */
    static CheckpointSettings settings(Path dir, String job, String mode, int pfsEvery, int pfsKeep) {
        Properties p = new Properties();
        p.setProperty(Settings.CKPT_DAEMON.property(), mode);
        p.setProperty(Settings.RUN_DIR.property(), dir.resolve("run").toString());
        p.setProperty(CheckpointSettings.L2_SECRET, dir.resolve("secret").toString());
        p.setProperty(CheckpointSettings.L2_BIND, "127.0.0.1");
        p.setProperty(CheckpointSettings.JOB_ID, job);
        p.setProperty(CheckpointSettings.NODE, "node0");
        p.setProperty(CheckpointSettings.L1_DIR, dir.resolve("l1").toString());
        p.setProperty(CheckpointSettings.PFS_DIR, dir.resolve("pfs").toString());
        p.setProperty(CheckpointSettings.PFS_EVERY, Integer.toString(pfsEvery));
        p.setProperty(CheckpointSettings.PFS_KEEP, Integer.toString(pfsKeep));
        return new CheckpointSettings(p, Map.of()).conclude("app");
    }

    /** Writes a 32-byte job secret, mode 0600. */
    static void writeSecret(Path file) throws IOException {
        try (FileChannel secret = SecureFiles.openForWrite(file)) {
            secret.write(ByteBuffer.wrap(new byte[32]).put(0, (byte) 7));
        }
    }

    /** Starts {@code node}'s daemon of {@code job}, its socket in {@code runDirectory}, and waits until it listens. */
    static NodeDaemonProcess start(String node, String job, Path runDirectory, Path secret) throws IOException {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-D" + CheckpointSettings.NODE + "=" + node,
                "-D" + Settings.RUN_DIR.property() + "=" + runDirectory, NodeDaemonMain.class.getName(), "--job",
                job, "--secret", secret.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        assertTrue(line != null && line.contains(NodeDaemonMain.READY), String.valueOf(line));
        return new NodeDaemonProcess(process);
    }

    /** Kills the daemon (SIGKILL), as a crash would, and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the node daemon did not die");
    }

    /** Stops the daemon as lazarus run does, by closing its standard input. */
    @Override
    public void close() throws IOException, InterruptedException {
        process.getOutputStream().close();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the node daemon did not stop");
    }
}
