package dev.lazarus.daemon.l2;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Nodes of one XOR set on this machine: each has its own L1 root under a fresh /dev/shm directory, real rank
 * checkpoints of unequal sizes written by the store's {@link IncrementalCheckpointer}, and (once started) its own
 * {@link L2Server} on its own loopback address 127.0.0.(m+1). One shared secret file, mode 0600.
 */
final class L2Fixture implements AutoCloseable {
    static final String JOB = "job-l2";
    static final int RANKS_PER_NODE = 2;

    final Path base;
    final Path secret;
    final int nodes;
    final List<Path> roots = new ArrayList<>();
    final List<L2Server> servers = new ArrayList<>();
    final List<String> members = new ArrayList<>();
    final List<String> log = Collections.synchronizedList(new ArrayList<>());

    L2Fixture(int nodes) throws IOException {
        this.nodes = nodes;
        this.base = Files.createTempDirectory(Path.of("/dev/shm"), "lazarus-l2-test");
        this.secret = writeSecret(base.resolve("secret"), 7);
        for (int m = 0; m < nodes; m++) {
            roots.add(base.resolve("node" + m));
        }
    }

    /** Writes a random secret of 32 bytes with mode 0600. */
    static Path writeSecret(Path file, long seed) throws IOException {
        byte[] bytes = new byte[32];
        new SplittableRandom(seed).nextBytes(bytes);
        try (FileChannel channel = SecureFiles.openForWrite(file)) {
            channel.write(ByteBuffer.wrap(bytes));
        }
        return file;
    }

    CheckpointDirectory l1(int node) {
        return new CheckpointDirectory(roots.get(node), JOB);
    }

    /** Writes full checkpoints of {@code version} for ranks 2m and 2m+1 of node m, of unequal sizes. */
    void writeCheckpoints(long version) throws IOException {
        int world = nodes * RANKS_PER_NODE;
        for (int m = 0; m < nodes; m++) {
            for (int r = m * RANKS_PER_NODE; r < (m + 1) * RANKS_PER_NODE; r++) {
                writeRank(l1(m), version, r, world, 8L * (20_000 + 37_003L * r + (r % 3) * 91_001L), r);
            }
        }
    }

    static void writeRank(CheckpointDirectory l1, long version, int rank, int world, long bytes, long seed)
            throws IOException {
        writeVersions(l1, rank, world, bytes, seed, version);
    }

    /**
     * Writes a chain for one rank: a full checkpoint of {@code base}, then an increment {@code increment} that
     * changes one page in every eight of its larger variable.
     */
    static void writeChain(CheckpointDirectory l1, long base, long increment, int rank, int world) throws IOException {
        writeVersions(l1, rank, world, 8L * (300_000 + 5_000L * rank), rank, base, increment);
    }

    /**
     * Checkpoints two variables of one rank as {@code versions}, the first full and each later one an increment
     * after one page in every eight of the larger variable changed.
     */
    private static void writeVersions(CheckpointDirectory l1, int rank, int world, long bytes, long seed,
                                      long... versions) throws IOException {
        try (Arena arena = Arena.ofConfined();
             IncrementalCheckpointer checkpointer = new IncrementalCheckpointer(l1, rank, world, 4096, 100,
                     new AllPagesScanner("test: every page hashed"))) {
            MemorySegment x = arena.allocate(bytes, 8);
            MemorySegment small = arena.allocate(8 * 1000 + 8L * rank, 8);
            fill(x, seed);
            fill(small, seed + 1000);
            checkpointer.protect(ProtectedRegion.of("x", ElementType.DOUBLE, x));
            checkpointer.protect(ProtectedRegion.of("small", ElementType.LONG, small));
            for (int i = 0; i < versions.length; i++) {
                for (long page = 0; i > 0 && page < x.byteSize() / 4096; page += 8) {
                    x.set(ValueLayout.JAVA_LONG, page * 4096, page + rank + i);
                }
                checkpointer.checkpoint(versions[i]);
            }
        }
    }

    static void fill(MemorySegment memory, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < memory.byteSize() / 8; i++) {
            memory.setAtIndex(ValueLayout.JAVA_LONG, i, random.nextLong());
        }
    }

    /** Starts a server per node on 127.0.0.(m+1), port chosen by the system, and records the member list. */
    void startServers() throws IOException {
        for (int m = 0; m < nodes; m++) {
            L2Server server = L2Server.start(context(m, false).bind("127.0.0." + (m + 1) + ":0").conclude());
            servers.add(server);
            members.add(Endpoints.format(server.address()));
        }
    }

    /** @return a context for node {@code m}; with members, for encoding or rebuilding (not yet concluded) */
    L2Context context(int m, boolean withMembers) {
        L2Context context = new L2Context().job(JOB).l1Root(roots.get(m)).secretFile(secret)
                .windowBytes(256 << 10).ioTimeoutMillis(10_000).log(log::add);
        if (withMembers) {
            context.members(members).self(m).setSize(nodes);
        }
        return context;
    }

    /** @return every regular file of a node's version directory by name, with its bytes */
    TreeMap<String, byte[]> files(int node, long version) throws IOException {
        TreeMap<String, byte[]> files = new TreeMap<>();
        Path directory = l1(node).versionDirectory(version);
        if (Files.isDirectory(directory)) {
            try (Stream<Path> entries = Files.list(directory)) {
                for (Path entry : entries.toList()) {
                    files.put(entry.getFileName().toString(), Files.readAllBytes(entry));
                }
            }
        }
        return files;
    }

    @Override
    public void close() throws IOException {
        servers.forEach(L2Server::close);
        try (Stream<Path> walk = Files.walk(base)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
