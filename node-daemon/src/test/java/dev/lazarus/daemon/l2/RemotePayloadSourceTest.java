package dev.lazarus.daemon.l2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.daemon.l2.client.PeerConnection;
import dev.lazarus.daemon.l2.client.RemotePayloadSource;
import dev.lazarus.daemon.l2.wire.IdleWatchdog;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.daemon.l2.wire.WireLayout;
import dev.lazarus.store.level.l2.NodePayload;
import dev.lazarus.store.level.xor.PayloadSource;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A node's payload read over TCP through {@link RemotePayloadSource} equals the local files, whatever the order of
 * the reads (windows drained and asked again), and the steady-state reads allocate nothing.
 */
class RemotePayloadSourceTest {
    private static final int SLICE = 64 << 10;

    @Test
    void readsMatchTheFilesInAnyOrderAndAllocateNothing() throws IOException {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (L2Fixture node = new L2Fixture(1); IdleWatchdog watchdog = IdleWatchdog.start(10_000, node.log::add);
             Arena arena = Arena.ofConfined()) {
            node.writeCheckpoints(1);
            node.startServers();
            byte[] expected;
            try (NodePayload local = NodePayload.open(node.l1(0), 1)) {
                expected = readAll(local.source(), arena);
            }
            try (PeerConnection peer = PeerConnection.open(node.servers.getFirst().address(),
                    node.members.getFirst(), JobSecret.load(node.secret), L2Fixture.JOB, 2000, watchdog)) {
                long chunk = expected.length / 3 + 8;
                PayloadSource remote = new RemotePayloadSource(peer, WireLayout.PAYLOAD_RANGE, 1, expected.length,
                        chunk, 256 << 10, chunk);
                assertArrayEquals(expected, readAll(remote, arena), "front to back");
                assertArrayEquals(expected, readBackwards(remote, arena, chunk), "chunks in reverse order");
                MemorySegment acc = arena.allocate(SLICE, 64);
                MemorySegment scratch = arena.allocate(SLICE, 64);
                long[] allocated = new long[3];
                for (int round = 0; round < allocated.length; round++) {
                    long before = threads.getCurrentThreadAllocatedBytes();
                    for (long at = 0; at < expected.length + SLICE; at += SLICE) {
                        remote.read(at, acc, 0, SLICE);
                        remote.xorInto(at, acc, 0, SLICE, scratch);
                    }
                    allocated[round] = threads.getCurrentThreadAllocatedBytes() - before;
                }
                assertTrue(allocated[2] < 1024, "bytes allocated per pass: " + Arrays.toString(allocated));
            }
        }
    }

    private static byte[] readAll(PayloadSource source, Arena arena) throws IOException {
        MemorySegment slice = arena.allocate(SLICE);
        byte[] all = new byte[(int) source.size()];
        for (long at = 0; at < all.length; at += SLICE) {
            source.read(at, slice, 0, SLICE);
            MemorySegment.copy(slice, ValueLayout.JAVA_BYTE, 0, all, (int) at, (int) Math.min(SLICE, all.length - at));
        }
        return all;
    }

    /** Reads each chunk's first half only, last chunk first: every switch drains an unfinished window. */
    private static byte[] readBackwards(PayloadSource source, Arena arena, long chunk) throws IOException {
        byte[] all = readAll(source, arena);
        MemorySegment half = arena.allocate(chunk / 2);
        for (long start = (all.length / chunk) * chunk; start >= 0; start -= chunk) {
            source.read(start, half, 0, half.byteSize());
            int n = (int) Math.max(0, Math.min(half.byteSize(), all.length - start));
            MemorySegment.copy(half, ValueLayout.JAVA_BYTE, 0, all, (int) start, n);
        }
        return all;
    }
}
