package dev.lazarus.daemon.l2.bench;

import dev.lazarus.daemon.l2.Endpoints;
import dev.lazarus.daemon.l2.wire.Link;
import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.NodePayload;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Helpers for {@code scripts/bench/xor-loopback}, run as separate processes:
 *
 * <pre>
 *   fill     --l1 DIR --job JOB --version V --world W --ranks R1,R2,... --bytes B1,B2,... [--seed S]
 *            write full rank checkpoints of V (random doubles) with the store's IncrementalCheckpointer
 *   member   --bind ADDR:PORT --self I --set-size N [--scheme xor|partner] --l1 DIR --job JOB --secret FILE
 *            a warm member process: serves L2 like {@code L2Main serve} and runs commands from stdin, answering
 *            each with one line on stdout ({@link BenchMember})
 * </pre>
 *
 * The baseline L2 is compared against is a member's {@code tcp-sink} and another's {@code tcp-send}: the same payload
 * bytes, copied by one plain connection from one process's /dev/shm to another's (sendfile out, a 1 MiB buffer and a
 * write in), with no XOR, protocol or authentication.
 */
public final class L2Bench {
    private static final int BUFFER_BYTES = 1 << 20;

    private L2Bench() {
    }

    public static void main(String[] args) {
        try {
            Map<String, String> options = options(args);
            switch (args.length == 0 ? "" : args[0]) {
                case "fill" -> fill(options);
                case "member" -> BenchMember.run(options);
                default -> throw new IllegalArgumentException("usage: L2Bench fill|member OPTIONS");
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("l2-bench: " + e.getMessage());
            System.exit(1);
        }
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        return options;
    }

    static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("option " + name + " is required");
        }
        return value;
    }

    private static void fill(Map<String, String> options) throws IOException {
        CheckpointDirectory l1 = new CheckpointDirectory(Path.of(required(options, "--l1")),
                required(options, "--job"));
        long version = Long.parseLong(required(options, "--version"));
        int world = Integer.parseInt(required(options, "--world"));
        String[] ranks = required(options, "--ranks").split(",");
        String[] bytes = required(options, "--bytes").split(",");
        long seed = Long.parseLong(options.getOrDefault("--seed", "1"));
        for (int i = 0; i < ranks.length; i++) {
            int rank = Integer.parseInt(ranks[i]);
            try (Arena arena = Arena.ofConfined();
                 IncrementalCheckpointer checkpointer = new IncrementalCheckpointer(l1, rank, world, 4096, 1,
                         new AllPagesScanner("bench: every checkpoint full"))) {
                MemorySegment memory = arena.allocate(Long.parseLong(bytes[i]) & -8L, 4096);
                SplittableRandom random = new SplittableRandom(seed * 1_000_003L + rank);
                for (long at = 0; at < memory.byteSize(); at += 8) {
                    memory.set(ValueLayout.JAVA_DOUBLE, at, random.nextDouble());
                }
                checkpointer.protect(ProtectedRegion.of("field", ElementType.DOUBLE, memory));
                checkpointer.checkpoint(version);
            }
        }
    }

    /** Accepts one connection and copies all it sends into {@code file}; @return the one-line report */
    static String receive(ServerSocketChannel server, Path file) throws IOException {
        try (SocketChannel socket = server.accept(); FileChannel out = SecureFiles.openForWrite(file)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
            long started = System.nanoTime();
            long received = 0;
            while (socket.read(buffer.clear()) >= 0) {
                buffer.flip();
                received += buffer.remaining();
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
            out.force(true);
            long nanos = System.nanoTime() - started;
            return String.format("l2-bench: received bytes=%d seconds=%.3f GBps=%.3f", received, nanos / 1e9,
                    (double) received / nanos);
        }
    }

    /** Sends this node's payload of {@code version} to {@code to} with sendfile; @return the bytes sent */
    static long send(CheckpointDirectory l1, long version, InetSocketAddress to) throws IOException {
        try (NodePayload payload = NodePayload.open(l1, version);
             Link link = new Link(SocketChannel.open(to), Endpoints.format(to))) {
            payload.transferTo(0, payload.size(), link);
            return payload.size();
        }
    }
}
