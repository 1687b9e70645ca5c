package dev.lazarus.coordinator.launch;

import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells Open MPI's own text apart from the ranks' output on {@code mpirun}'s standard error, and sums it up in one
 * line of ours.
 *
 * <p>mpirun forwards the ranks' standard error, so both arrive on one stream. Open MPI's text has recognisable shapes:
 * help messages framed by lines of dashes, lines prefixed {@code [host:pid]} (daemon errors, signal reports of its own
 * processes), and the remote shell's lines ({@code ssh: ...}). Everything else is the ranks' and passes through.
 * A feeder calls {@link #isOpenMpis} for every line in order: a framed block is recognised across lines.
 */
final class OpenMpiText {
    private static final Pattern FRAME = Pattern.compile("-{40,}");
    private static final Pattern DAEMON_PREFIX = Pattern.compile("\\[[^\\]\\s]+:\\d+\\] .*");
    private static final Pattern OWN_LINE = Pattern.compile("(ssh: |Permission denied|Host key verification failed"
            + "|FORCE-TERMINATE|input in flex scanner failed|mpirun |prterun |ORTE |PRTE |PMIX ERROR).*");

    /** Known messages, most specific first: the first that matches any diverted line is the summary. */
    private static final List<Translation> TRANSLATIONS = List.of(
            new Translation("ssh: Could not resolve hostname ([^:\\s]+).*",
                    m -> "host " + m.group(1) + " could not be resolved (check --hosts)"),
            new Translation("ssh: connect to host (\\S+) port (\\d+): (.+)",
                    m -> "cannot reach host " + m.group(1) + " by ssh (port " + m.group(2) + "): " + m.group(3)
                            + " (check --hosts and --net)"),
            // Not mpirun's own "setpgid(...) failed ... errno=Permission denied(13)" warning, which it prints when a
            // remote shell ended before it could be put in a process group (a host lost mid-run does that).
            new Translation("(?!.*setpgid).*(Permission denied|Host key verification failed).*",
                    m -> "a host refused the remote shell (" + m.group(1) + "): check its ssh keys or --rsh-agent"),
            new Translation(".*FORCE-TERMINATE AT Not found.*",
                    m -> "Open MPI's daemons could not find the remote shell program on some host (give --rsh-agent"
                            + " as an absolute path that exists on every host)"),
            new Translation(".*(ORTE|PRTE) was unable to reliably start one or more daemons.*",
                    m -> "Open MPI could not start its daemon on every host (check --hosts, --rsh-agent and --net)"),
            new Translation(".*(ORTE|PRTE) (has lost communication with a remote daemon|daemon has unexpectedly"
                    + " failed).*", m -> "Open MPI lost a host's daemon: the host or its network failed"),
            new Translation(".*None of the TCP networks specified to be included.*",
                    m -> "no network interface of some host is in --net"),
            new Translation(".*MPI_ABORT was invoked on rank (\\d+).*", m -> "rank " + m.group(1) + " aborted the job"),
            new Translation("mpirun noticed that process rank (\\d+) with PID \\d+ on node (\\S+) exited on signal"
                    + " (\\d+) \\(([^)]*)\\).*", m -> "rank " + m.group(1) + " on " + m.group(2)
                            + " was ended by signal " + m.group(3) + " (" + m.group(4) + ")"),
            new Translation("\\[[^\\]\\s]+:\\d+\\] Signal: (.+)", m -> "Open MPI's launcher crashed (" + m.group(1)
                    + ")"));

    /** Longer first lines are cut: the summary is one terminal line, the whole text is in the launcher log. */
    private static final int MAX_SUMMARY = 200;

    private boolean inFrame;

    /** @return whether {@code line}, the next line of mpirun's standard error, is Open MPI's rather than a rank's */
    boolean isOpenMpis(String line) {
        if (FRAME.matcher(line).matches()) {
            inFrame = !inFrame;
            return true;
        }
        return inFrame || DAEMON_PREFIX.matcher(line).matches() || OWN_LINE.matcher(line).matches();
    }

    /**
     * @param lines Open MPI's lines of one launch, in order (not empty)
     * @return what they mean, in one line: a known message translated, else the first line that says something
     */
    static String summary(List<String> lines) {
        for (Translation translation : TRANSLATIONS) {
            for (String line : lines) {
                Matcher m = translation.pattern().matcher(line.strip());
                if (m.matches()) {
                    return printable(translation.meaning().apply(m));
                }
            }
        }
        return lines.stream().map(String::strip).filter(l -> !l.isEmpty() && !FRAME.matcher(l).matches())
                .findFirst().map(l -> "Open MPI said: " + printable(l)).orElse("Open MPI printed only frames");
    }

    /** Keeps control characters out of the terminal and the summary on one line. */
    private static String printable(String text) {
        String cut = text.length() > MAX_SUMMARY ? text.substring(0, MAX_SUMMARY) + "..." : text;
        return cut.replaceAll("\\P{Print}", "?");
    }

    private record Translation(Pattern pattern, Function<Matcher, String> meaning) {
        Translation(String regex, Function<Matcher, String> meaning) {
            this(Pattern.compile(regex), meaning);
        }
    }
}
