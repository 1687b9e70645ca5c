package dev.lazarus.daemon.l2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class L2ContextTest {
    @TempDir
    Path dir;

    private L2Context context() throws IOException {
        return new L2Context().secretFile(L2Fixture.writeSecret(dir.resolve("secret"), 3));
    }

    private static List<String> nodes(int n) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add("127.0.0." + (i + 1) + ":" + (7000 + i));
        }
        return nodes;
    }

    @Test
    void setsAreConsecutiveGroupsAndTheLastMayBeSmaller() throws IOException {
        XorSetMembership second = context().job("j").members(nodes(10)).self(5).setSize(4).conclude().membership();
        assertEquals("set=1 member=1 of 4 " + nodes(10).subList(4, 8), second.toString());
        XorSetMembership last = context().job("j").members(nodes(10)).self(9).setSize(4).conclude().membership();
        assertEquals("set=2 member=1 of 2 " + nodes(10).subList(8, 10), last.toString());
        XorSetMembership alone = context().job("j").members(nodes(9)).self(8).setSize(4).conclude().membership();
        assertFalse(alone.redundant());
    }

    @Test
    void theCommandLineWinsOverTheEnvironmentWhichWinsOverDefaults() throws IOException {
        Map<String, String> env = Map.of(L2Context.ENV_JOB, "from-env", L2Context.ENV_SET_SIZE, "3",
                L2Context.ENV_MEMBERS, String.join(",", nodes(6)), L2Context.ENV_SELF, "4");
        L2Context context = context().job("from-cli").environment(env).conclude();
        assertEquals("from-cli", context.job());
        assertEquals(3, context.setSize());
        assertEquals("set=1 member=1 of 3 " + nodes(6).subList(3, 6), context.membership().toString());
        assertEquals(Path.of(L2Context.DEFAULT_L1), context.l1Root());
    }

    @Test
    void badSettingsAreNamedBeforeAnythingIsCreated() throws IOException {
        Path root = dir.resolve("l1");
        assertEquals("self=9 outside the 4 members", assertThrows(IllegalArgumentException.class,
                () -> context().job("j").l1Root(root).members(nodes(4)).self(9).conclude()).getMessage());
        assertEquals("address 'bad?host:1' must be host:port, at most 255 printable ASCII characters",
                assertThrows(IllegalArgumentException.class, () -> context().job("j").members(List.of("bad\nhost:1"))
                        .self(0).conclude()).getMessage());
        assertEquals("setSize=1 must be 2 to 256", assertThrows(IllegalArgumentException.class,
                () -> context().job("j").setSize(1).conclude()).getMessage());
        assertEquals("job id 'a/b' must be 1 to 64 of [A-Za-z0-9_.-], not . or ..",
                assertThrows(IllegalArgumentException.class, () -> context().job("a/b").conclude()).getMessage());
        assertEquals("node list not set (--members A:P,B:P,... and --self INDEX)", assertThrows(
                IllegalStateException.class, () -> context().job("j").conclude().membership()).getMessage());
        assertFalse(Files.exists(root));
    }
}
