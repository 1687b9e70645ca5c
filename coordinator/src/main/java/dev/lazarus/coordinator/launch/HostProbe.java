package dev.lazarus.coordinator.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Asks hosts whether they answer, through the agent Open MPI reaches them with (ssh, {@code scripts/netns-rsh}): it
 * runs {@code true} on each, all at once, and a host whose agent fails or does not finish in time is unreachable.
 * That is how the coordinator tells a lost node (powered off, cut off) from a node whose ranks died.
 */
public final class HostProbe {
    /** How long a host may take to answer; ssh's own connect timeout is a little shorter. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);
    /** The most of an agent's error output kept for the reason. */
    private static final int MAX_REASON_BYTES = 4096;

    private final String rshAgent;
    private final Duration timeout;

    /**
     * @param rshAgent the agent ({@code --rsh-agent}), or null for ssh
     * @param timeout  how long each host may take
     */
    public HostProbe(String rshAgent, Duration timeout) {
        this.rshAgent = rshAgent;
        this.timeout = timeout;
    }

    /**
     * @param hosts the hosts to ask
     * @return each host that did not answer, in the order given, with why (the agent's last line of error output,
     *         or the timeout)
     */
    public Map<String, String> unreachable(List<String> hosts) {
        List<Process> probes = new ArrayList<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        for (String host : hosts) {
            try {
                probes.add(new ProcessBuilder(command(host)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            } catch (IOException e) {
                probes.add(null);
                unreachable.put(host, "its agent did not start: " + e.getMessage());
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int i = 0; i < hosts.size(); i++) {
            Process probe = probes.get(i);
            if (probe == null) {
                continue;
            }
            try {
                if (!probe.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    probe.destroyForcibly();
                    unreachable.put(hosts.get(i), "no answer within " + timeout.toSeconds() + " s");
                } else if (probe.exitValue() != 0) {
                    unreachable.put(hosts.get(i), reason(probe));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                probe.destroyForcibly();
                unreachable.put(hosts.get(i), "interrupted while it was asked");
            }
        }
        return unreachable;
    }

    private List<String> command(String host) {
        if (rshAgent == null) {
            // Never a password prompt; a dead node's connect fails before the probe's own timeout.
            long connect = Math.max(1, timeout.toSeconds() - 2);
            return List.of("ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=" + connect, host, "true");
        }
        return List.of(JobLauncher.absoluteAgent(rshAgent), host, "true");
    }

    private static String reason(Process probe) {
        String said;
        try (InputStream err = probe.getErrorStream()) {
            said = new String(err.readNBytes(MAX_REASON_BYTES), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            said = "";
        }
        String last = said.isEmpty() ? "" : said.substring(said.lastIndexOf('\n') + 1).replaceAll("\\P{Print}", "?");
        return "exit status " + probe.exitValue() + (last.isEmpty() ? "" : ": " + last);
    }
}
