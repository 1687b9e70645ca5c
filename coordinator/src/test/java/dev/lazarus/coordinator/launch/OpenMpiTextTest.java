package dev.lazarus.coordinator.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Open MPI 4.1.4's own lines, as mpirun printed them on this machine, told apart from the ranks' and translated. */
class OpenMpiTextTest {
    /** Printed when the daemons could not find a relative --rsh-agent (three simulated hosts). */
    private static final List<String> FORCE_TERMINATE = List.of(
            "[vm:23789] [[12312,0],2] FORCE-TERMINATE AT Not found:-13 - error"
                    + " ../../../../../../orte/mca/plm/rsh/plm_rsh_component.c(335)",
            "[vm:23789] *** Process received signal ***",
            "[vm:23789] Signal: Segmentation fault (11)",
            "[vm:23789] Signal code: Address not mapped (1)",
            "[vm:23789] Failing at address: (nil)",
            "[vm:23789] [ 0] /lib/x86_64-linux-gnu/libc.so.6(+0x3c050)[0x7f39633bf050]",
            "[vm:23789] *** End of error message ***");

    private static final String FRAME = "-".repeat(74);

    @Test
    void daemonLinesAndFramedHelpAreOpenMpisWhileRankLinesPassThrough() {
        OpenMpiText text = new OpenMpiText();
        for (String line : FORCE_TERMINATE) {
            assertTrue(text.isOpenMpis(line), line);
        }
        assertFalse(text.isOpenMpis("lazarus: NVM start: fresh (no heap from an earlier run)"));
        assertFalse(text.isOpenMpis("java.lang.IllegalStateException: boom"));
        assertFalse(text.isOpenMpis("\tat dev.lazarus.Foo.bar(Foo.java:1)"));
        assertFalse(text.isOpenMpis(""));
        assertTrue(text.isOpenMpis(FRAME));
        assertTrue(text.isOpenMpis("Primary job  terminated normally, but 1 process returned"));
        assertTrue(text.isOpenMpis(""), "a blank line inside a frame is Open MPI's");
        assertTrue(text.isOpenMpis(FRAME));
        assertFalse(text.isOpenMpis("rank 1 says hello"), "the frame ended");
        assertTrue(text.isOpenMpis("ssh: Could not resolve hostname nosuchhost: Name or service not known"));
        assertTrue(text.isOpenMpis("mpirun noticed that process rank 1 with PID 0 on node n2 exited on signal 9"
                + " (Killed)."));
    }

    @Test
    void knownMessagesAreTranslatedIntoOneLineOfOurs() {
        assertEquals("Open MPI's daemons could not find the remote shell program on some host (give --rsh-agent as an"
                + " absolute path that exists on every host)", OpenMpiText.summary(FORCE_TERMINATE));
        assertEquals("host nosuchhost could not be resolved (check --hosts)", OpenMpiText.summary(List.of(
                "ssh: Could not resolve hostname nosuchhost: Name or service not known")));
        assertEquals("cannot reach host 192.0.2.1 by ssh (port 22): Connection refused (check --hosts and --net)",
                OpenMpiText.summary(List.of("ssh: connect to host 192.0.2.1 port 22: Connection refused")));
        assertEquals("a host refused the remote shell (Permission denied): check its ssh keys or --rsh-agent",
                OpenMpiText.summary(List.of("user@n1: Permission denied (publickey).")));
        String setpgid = "[vm:06389] plm:rsh: Warning: setpgid(6400,6400) failed in parent with errno=Permission"
                + " denied(13)";
        assertEquals("Open MPI said: " + setpgid, OpenMpiText.summary(List.of(setpgid)),
                "mpirun's warning about a remote shell that ended early is no refused login");
        assertEquals("Open MPI lost a host's daemon: the host or its network failed", OpenMpiText.summary(List.of(
                FRAME, "ORTE has lost communication with a remote daemon.", "", "  HNP daemon   : [[1,0],0] on node a",
                FRAME)));
        assertEquals("rank 1 on n2 was ended by signal 9 (Killed)", OpenMpiText.summary(List.of(
                "mpirun noticed that process rank 1 with PID 4242 on node n2 exited on signal 9 (Killed).")));
        assertEquals("Open MPI's launcher crashed (Segmentation fault (11))", OpenMpiText.summary(
                FORCE_TERMINATE.subList(1, 4)));
    }

    @Test
    void anUnknownMessageIsItsFirstMeaningfulLineMadePrintableAndShort() {
        assertEquals("Open MPI said: WARNING: an unknown thing?happened", OpenMpiText.summary(List.of(FRAME, "",
                "  WARNING: an unknown thing\u0007happened", FRAME)));
        String summary = OpenMpiText.summary(List.of("ORTE " + "x".repeat(500)));
        assertTrue(summary.endsWith("...") && summary.length() < 230, summary);
        assertEquals("Open MPI printed only frames", OpenMpiText.summary(List.of(FRAME, FRAME)));
    }
}
