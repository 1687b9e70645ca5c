package dev.lazarus.coordinator.launch;

import dev.lazarus.daemon.process.NodeDaemonMain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The node daemon processes of one job ({@code --node-daemon process}): one per host, started before the first
 * launch (on this host directly, on the others through the rsh agent Open MPI uses, ssh or {@code scripts/netns-rsh})
 * and kept across launches: a rank crash leaves them running. Before each launch a daemon that died (its node was
 * lost) is started again. Each ends when its standard input closes, which {@link #close()} does, and which a killed
 * {@code lazarus run} does too.
 */
public final class NodeDaemonProcesses implements AutoCloseable {
    /** How long a daemon may take to listen. */
    static final long START_SECONDS = 60;
    /** How long a daemon may take to stop: its L2 service waits until the other nodes stop using it. */
    static final long STOP_SECONDS = 30;

    private final List<String> hosts;
    /** Whether the one daemon runs on this host, without a host file (and without the agent). */
    private final boolean local;
    private final String rshAgent;
    private final List<String> command;
    private final PrintStream err;
    private final List<Process> processes = new ArrayList<>();
    /** Set once {@link #close()} stops the daemons: their ends are then expected. */
    private volatile boolean closing;
    /** Daemons ended on purpose ({@link #replace}): their ends go unsaid. */
    private final Set<Process> letGo = ConcurrentHashMap.newKeySet();

    private NodeDaemonProcesses(List<String> hosts, String rshAgent, List<String> command, PrintStream err) {
        this.local = hosts.isEmpty();
        this.hosts = new ArrayList<>(local ? List.of("this host") : hosts);
        this.rshAgent = rshAgent;
        this.command = List.copyOf(command);
        this.err = err;
    }

    /** @return the command that starts host {@code i}'s daemon: directly here, else through the agent */
    private List<String> commandFor(int i) {
        if (local) {
            return command;
        }
        String remote = String.join(" ", command.stream().map(NodeDaemonProcesses::quoted).toList());
        return List.of(rshAgent == null ? "ssh" : JobLauncher.absoluteAgent(rshAgent), hosts.get(i), remote);
    }

    /**
     * Starts one daemon per host and waits until each listens.
     *
     * @param hosts     the job's hosts as the host file names them; empty: this host only
     * @param rshAgent  the agent that runs a command on a host ({@code --rsh-agent}), or null for ssh
     * @param command   the daemon's command ({@link JobLauncher#nodeDaemonCommand})
     * @throws IOException if a daemon cannot be started or does not listen in time (the others are stopped)
     */
    public static NodeDaemonProcesses start(List<String> hosts, String rshAgent, List<String> command,
                                            PrintStream err) throws IOException {
        NodeDaemonProcesses daemons = new NodeDaemonProcesses(hosts, rshAgent, command, err);
        try {
            for (int i = 0; i < daemons.hosts.size(); i++) {
                daemons.processes.add(null);
            }
            daemons.ensureRunning();
            return daemons;
        } catch (IOException | RuntimeException e) {
            daemons.close();
            throw e;
        }
    }

    /**
     * @return the places (in host file order) of the daemons that ended since they were started: a daemon outlives
     *         its node's ranks, so one that ended went down with its node (or was killed on purpose)
     */
    public List<Integer> ended() {
        List<Integer> ended = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            if (processes.get(i) != null && !processes.get(i).isAlive()) {
                ended.add(i);
            }
        }
        return ended;
    }

    /**
     * The daemon of host {@code index} runs on {@code host} from now on (a spare in a lost node's place); it starts at
     * the next {@link #ensureRunning}. What is left of the old one is killed.
     */
    public void replace(int index, String host) {
        letGo(processes.get(index));
        processes.set(index, null);
        hosts.set(index, host);
    }

    /**
     * Host {@code index} leaves the job (lost, and no spare takes its place): what is left of its daemon is killed,
     * and the hosts after it move up one place.
     */
    public void drop(int index) {
        letGo(processes.remove(index));
        hosts.remove(index);
    }

    /** Kills what is left of a daemon ended on purpose; its end goes unsaid. */
    private void letGo(Process old) {
        if (old != null) {
            letGo.add(old);
            old.descendants().forEach(ProcessHandle::destroyForcibly);
            old.destroyForcibly();
        }
    }

    /** Starts again every daemon that is not running (its node was lost, or it died); waits until each listens. */
    public void ensureRunning() throws IOException {
        List<CompletableFuture<String>> ready = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            Process process = processes.get(i);
            if (process != null && process.isAlive()) {
                ready.add(CompletableFuture.completedFuture(""));
                continue;
            }
            if (process != null) {
                err.println("lazarus: the node daemon on " + hosts.get(i) + " ended (exit status "
                        + process.exitValue() + "); starting it again");
            }
            Process started = new ProcessBuilder(commandFor(i)).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            processes.set(i, started);
            ready.add(readyLine(started, hosts.get(i)));
        }
        for (int i = 0; i < ready.size(); i++) {
            try {
                String line = ready.get(i).get(START_SECONDS, TimeUnit.SECONDS);
                if (line == null) {
                    throw new IOException("the node daemon on " + hosts.get(i) + " ended before it listened (exit"
                            + " status " + processes.get(i).waitFor() + ")");
                }
                if (!line.isEmpty()) {
                    err.println(line);
                }
            } catch (TimeoutException e) {
                throw new IOException("the node daemon on " + hosts.get(i) + " did not listen within "
                        + START_SECONDS + " s");
            } catch (ExecutionException e) {
                throw new IOException("the node daemon on " + hosts.get(i) + ": " + e.getCause().getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the node daemons started");
            }
        }
    }

    /**
     * @return the daemon's ready line, or null when its output ended first; its later output is passed on, and its
     *         end while the job runs is said at once (the node's L2 work stops until the next launch starts it again)
     */
    private CompletableFuture<String> readyLine(Process process, String host) {
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("node-daemon-output").start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    if (!ready.isDone() && line.contains(NodeDaemonMain.READY)) {
                        ready.complete(line);
                    } else {
                        err.println(line);
                    }
                }
            } catch (IOException e) {
                // the daemon is gone; said below
            }
            if (ready.isDone() && !closing && !letGo.contains(process)) {
                err.println("lazarus: the node daemon on " + host + " ended (exit status " + exitStatus(process)
                        + ") while the job ran: its node's L2 work stops, and the next launch starts it again");
            }
            ready.complete(null);
        });
        return ready;
    }

    private static String exitStatus(Process process) {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Stops every daemon: closes its standard input, waits for it, and kills what did not stop in time. */
    @Override
    public void close() {
        closing = true;
        for (Process process : processes) {
            if (process != null) {
                try {
                    process.getOutputStream().close();
                } catch (IOException e) {
                    // already gone
                }
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_SECONDS);
        for (Process process : processes) {
            if (process == null) {
                continue;
            }
            try {
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    /** One word for the remote shell the agent runs the command with. */
    static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
