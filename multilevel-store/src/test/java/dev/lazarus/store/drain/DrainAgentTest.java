package dev.lazarus.store.drain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.agent.AgentRunner;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DrainAgentTest {

    private static final class Fixture implements AutoCloseable {
        final CheckpointDirectory l1;
        final CheckpointDirectory l3;
        final double[] x;
        final IncrementalCheckpointer checkpointer;
        final List<DrainResult> results = new ArrayList<>();
        final DrainAgent agent;
        final AgentRunner runner;

        Fixture(Path l1Root, Path l3Root, int elements, int every) {
            l1 = new CheckpointDirectory(l1Root, "job");
            l3 = new CheckpointDirectory(l3Root, "job");
            x = new double[elements];
            checkpointer = new IncrementalCheckpointer(l1, 0, 1, 512, 10, new AllPagesScanner("all"));
            checkpointer.protect(ProtectedRegion.of("x", ElementType.DOUBLE, MemorySegment.ofArray(x)));
            agent = new DrainAgent(List.of(new LevelCopyTarget("L3", l1, l3, 0, every, true)), results::add);
            runner = new AgentRunner(agent, 1_000_000, Throwable::printStackTrace).start();
        }

        void checkpoint(long version) throws Exception {
            x[(int) version * 100] = version;
            checkpointer.checkpoint(version);
            agent.submit(version);
        }

        @Override
        public void close() {
            runner.close();
            checkpointer.close();
        }
    }

    @Test
    void everySecondVersionDrainsAsOneFullCheckpointComposedFromItsChain(@TempDir Path dir) throws Exception {
        try (Fixture f = new Fixture(dir.resolve("l1"), dir.resolve("l3"), 4096, 2)) {
            double[] atTwo = null;
            for (long v = 1; v <= 4; v++) {
                f.checkpoint(v);
                if (v == 2) {
                    f.agent.awaitIdle();
                    atTwo = f.x.clone();
                }
            }
            f.agent.awaitIdle();
            assertEquals(List.of(2L, 4L), f.results.stream().map(DrainResult::version).toList());
            assertTrue(f.results.stream().allMatch(DrainResult::ok), f.results::toString);
            // Versions 2 to 4 changed one block each on L1; L3 holds 2 and 4 only, each whole.
            assertFalse(ChainRestorer.chain(f.l1, 4, 0, 1).getLast().full());
            assertEquals(List.of(2L, 4L), f.l3.versions());
            assertTrue(ChainRestorer.chain(f.l3, 4, 0, 1).getLast().full());
            assertEquals(4096L * Double.BYTES, ChainRestorer.chain(f.l3, 4, 0, 1).getLast().dataLength());
            double[] expected = f.x.clone();
            wipe(dir.resolve("l1"));
            Arrays.fill(f.x, 0);
            ChainRestorer.restore(f.l3, 4, 0, 1, f.checkpointer.regions());
            assertArrayEquals(expected, f.x);
            ChainRestorer.restore(f.l3, 2, 0, 1, f.checkpointer.regions());
            assertArrayEquals(atTwo, f.x);
            assertEquals(4, new Catalog(f.l3).newestComplete(true).orElseThrow().version());
        }
    }

    @Test
    void damageOnL1IsReportedNotCopied(@TempDir Path dir) throws Exception {
        try (Fixture f = new Fixture(dir.resolve("l1"), dir.resolve("l3"), 4096, 2)) {
            f.checkpoint(1);
            f.checkpoint(2);
            f.checkpoint(3);
            f.agent.awaitIdle();
            byte[] data = Files.readAllBytes(f.l1.dataFile(3, 0));
            data[0] ^= 1;
            Files.write(f.l1.dataFile(3, 0), data);
            f.checkpoint(4);
            f.agent.awaitIdle();
            DrainResult last = f.results.getLast();
            assertFalse(last.ok());
            assertEquals("CorruptCheckpointException: " + f.l1.dataFile(3, 0)
                    + ": chunk 0 (variable x offset=2048 length=512) checksum mismatch", last.error());
            assertFalse(Files.exists(f.l3.manifestFile(3, 0)));
            assertFalse(Files.exists(f.l3.dataFile(3, 0)));
            assertEquals(2, new Catalog(f.l3).newestComplete(true).orElseThrow().version());
        }
    }

    @Test
    void aNewVersionWaitsForTheDrainBeforeIt(@TempDir Path dir) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        DrainTarget slow = blocking(1, false, started, release);
        DrainAgent agent = new DrainAgent(List.of(slow), r -> { });
        try (AgentRunner runner = new AgentRunner(agent, 1_000_000, Throwable::printStackTrace).start()) {
            assertTrue(agent.submit(1) < TimeUnit.SECONDS.toNanos(1));
            assertTrue(started.await(10, TimeUnit.SECONDS));
            AtomicLong waited = new AtomicLong(-1);
            Thread second = submitInBackground(agent, 2, waited);
            awaitWaiting(second, "version 2 must wait while version 1 drains");
            Thread.sleep(300); // waited in submit at least this long, however late the thread got there
            release.countDown();
            second.join(10_000);
            assertTrue(waited.get() >= TimeUnit.MILLISECONDS.toNanos(200), "waited " + waited.get());
            agent.awaitIdle();
            assertEquals(List.of(1L, 2L), agent.results().stream().map(DrainResult::bytes).toList());
        }
    }

    @Test
    void aOneOffDrainRunsOutsideTheIntervalPinsItsVersionAndHoldsBackTheNextVersion() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        DrainTarget everyThird = blocking(3, true, started, release);
        List<DrainResult> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        DrainAgent agent = new DrainAgent(List.of(everyThird), told::add);
        try (AgentRunner runner = new AgentRunner(agent, 1_000_000, Throwable::printStackTrace).start()) {
            agent.submitOnce("L2", 7, v -> everyThird.stages().getFirst().run(v, List.of()).bytes());
            assertTrue(started.await(10, TimeUnit.SECONDS));
            assertEquals(List.of(7L), agent.inFlight(), "the version being re-encoded stays on L1");
            Thread next = submitInBackground(agent, 8, new AtomicLong());
            awaitWaiting(next, "version 8 must wait while the one-off drain of 7 reads other nodes");
            release.countDown();
            next.join(10_000);
            assertFalse(next.isAlive());
            agent.awaitIdle();
            // Version 8 is the first submitted, not a third: only the one-off drained, and the listener heard of it.
            assertEquals(List.of(7L), agent.results().stream().map(DrainResult::version).toList());
            assertEquals(agent.results(), told);
            assertTrue(told.getFirst().ok());
            assertEquals("L2", told.getFirst().level());
            assertEquals(List.of(), agent.inFlight());
        }
    }

    /**
     * Waits until {@code thread} waits in {@link DrainAgent#submit}, the only place it can wait. Joining for a fixed
     * time instead proved nothing when the thread had not reached submit yet, and then the thread did not wait at all
     * once the drain was released: under CPU load a new thread can take longer than 300 ms to run.
     */
    /** Waits until {@code thread} is seen parked (the drain's waiters park in steps, so timed or not). */
    private static void awaitWaiting(Thread thread, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Thread.State state = thread.getState();
        while (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING && thread.isAlive()
                && System.nanoTime() < deadline) {
            Thread.sleep(1);
            state = thread.getState();
        }
        assertTrue(state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING, message + ": " + state);
    }

    /** Submits {@code version} on a thread of its own, setting {@code waited} to the back-pressure it reports. */
    private static DrainStage stage(String name, StageOutcome.Status status, List<String> ran) {
        return new DrainStage() {
            public String name() {
                return name;
            }

            public StageOutcome run(long version, List<StageOutcome> earlier) throws IOException {
                ran.add(name + " after " + earlier.stream().map(StageOutcome::stage).toList());
                return switch (status) {
                    case DONE -> StageOutcome.done(name, 10 * version);
                    case SKIPPED -> StageOutcome.skipped(name, "nothing changed");
                    case FAILED -> throw new IOException("disk full");
                };
            }
        };
    }

    private static DrainTarget pipeline(List<DrainStage> stages) {
        return new DrainTarget() {
            public String level() {
                return "L3";
            }

            public int every() {
                return 1;
            }

            public List<DrainStage> stages() {
                return stages;
            }
        };
    }

    /**
     * A level's stages run in order, each seeing what the ones before it did; a skipped stage lets the drain go on, a
     * failed one stops it, and the result names the stage and keeps every outcome.
     */
    @Test
    void aLevelsStagesRunInOrderUntilOneFails() throws Exception {
        List<String> ran = new ArrayList<>();
        List<DrainResult> results = new ArrayList<>();
        DrainAgent agent = new DrainAgent(List.of(pipeline(List.of(stage("delta", StageOutcome.Status.SKIPPED, ran),
                stage("compress", StageOutcome.Status.DONE, ran), stage("copy", StageOutcome.Status.DONE, ran)))),
                results::add);
        try (AgentRunner runner = new AgentRunner(agent, 1_000_000, Throwable::printStackTrace).start()) {
            agent.submit(3);
            agent.awaitIdle();
        }
        assertEquals(List.of("delta after []", "compress after [delta]", "copy after [delta, compress]"), ran);
        DrainResult ok = results.getFirst();
        assertTrue(ok.ok(), ok.error());
        assertEquals(60, ok.bytes());
        assertEquals(List.of("delta: skipped (nothing changed)", "compress: done 30 bytes", "copy: done 30 bytes"),
                ok.stages().stream().map(StageOutcome::describe).toList());

        ran.clear();
        results.clear();
        DrainAgent failing = new DrainAgent(List.of(pipeline(List.of(stage("compress", StageOutcome.Status.DONE, ran),
                stage("encode", StageOutcome.Status.FAILED, ran), stage("copy", StageOutcome.Status.DONE, ran)))),
                results::add);
        try (AgentRunner runner = new AgentRunner(failing, 1_000_000, Throwable::printStackTrace).start()) {
            failing.submit(1);
            failing.awaitIdle();
        }
        assertEquals(List.of("compress after []", "encode after [compress]"), ran);
        DrainResult failed = results.getFirst();
        assertEquals("encode: IOException: disk full", failed.error());
        assertEquals(0, failed.bytes());
        assertEquals(2, failed.stages().size());
    }

    private static Thread submitInBackground(DrainAgent agent, long version, AtomicLong waited) {
        return Thread.ofPlatform().start(() -> {
            try {
                waited.set(agent.submit(version));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** A target of every {@code every}th version that blocks in {@code drain} until released. */
    private static DrainTarget blocking(int every, boolean readsOtherNodes, CountDownLatch started,
                                        CountDownLatch release) {
        return new DrainTarget() {
            public String level() {
                return readsOtherNodes ? "L2" : "L3";
            }

            public int every() {
                return every;
            }

            public boolean readsOtherNodes() {
                return readsOtherNodes;
            }

            public List<DrainStage> stages() {
                return List.of(new DrainStage() {
                    public String name() {
                        return "block";
                    }

                    public StageOutcome run(long version, List<StageOutcome> earlier) throws IOException {
                        started.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            throw new IOException(e);
                        }
                        return StageOutcome.done(name(), version);
                    }
                });
            }
        };
    }

    @Test
    void aVersionNoLevelTakesGoesOnWhileTheDrainRunsAndTheDrainingOneIsPinned() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        DrainAgent agent = new DrainAgent(List.of(blocking(2, false, started, release)), r -> { });
        try (AgentRunner runner = new AgentRunner(agent, 1_000_000, Throwable::printStackTrace).start()) {
            assertEquals(List.of(), agent.inFlight());
            agent.submit(1);
            agent.submit(2);
            assertTrue(started.await(10, TimeUnit.SECONDS));
            assertEquals(List.of(2L), agent.inFlight(), "version 2 is draining");
            long waited = agent.submit(3); // taken by no level: must not wait for version 2
            assertTrue(waited < TimeUnit.SECONDS.toNanos(1), "version 3 waited " + waited + " ns");
            AtomicLong fourth = new AtomicLong(-1);
            Thread t = submitInBackground(agent, 4, fourth);
            awaitWaiting(t, "version 4 goes to L3 and must wait for version 2's drain");
            release.countDown();
            t.join(10_000);
            agent.awaitIdle();
            assertEquals(List.of(2L, 4L), agent.results().stream().map(DrainResult::version).toList());
            assertEquals(List.of(), agent.inFlight());
        }
    }

    @Test
    void withATargetReadingOtherNodesEveryVersionWaits() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        DrainAgent agent = new DrainAgent(List.of(blocking(2, true, started, release)), r -> { });
        try (AgentRunner runner = new AgentRunner(agent, 1_000_000, Throwable::printStackTrace).start()) {
            agent.submit(1);
            agent.submit(2);
            assertTrue(started.await(10, TimeUnit.SECONDS));
            Thread t = submitInBackground(agent, 3, new AtomicLong());
            awaitWaiting(t, "the other nodes keep version 2 only while version 3 waits");
            release.countDown();
            t.join(10_000);
            assertFalse(t.isAlive());
        }
    }

    @Test
    void aFullPfsIsReportedAndL1KeepsEverything(@TempDir Path dir) throws Exception {
        Path pfs = Files.createDirectories(dir.resolve("pfs"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", pfs.toString())
                .redirectErrorStream(true).start();
        assumeTrue(mount.waitFor() == 0, "needs root to mount a 1 MiB tmpfs as a full PFS");
        try (Fixture f = new Fixture(dir.resolve("l1"), pfs, 512 * 1024, 1)) {
            f.checkpoint(1);
            f.agent.awaitIdle();
            DrainResult result = f.results.getLast();
            assertFalse(result.ok());
            assertTrue(result.error().contains("No space left on device"), result.error());
            assertTrue(new Catalog(f.l1).status(1, true).complete());
            try (Stream<Path> files = Files.walk(pfs)) {
                assertEquals(List.of(), files.filter(Files::isRegularFile).toList());
            }
        } finally {
            new ProcessBuilder("umount", pfs.toString()).start().waitFor();
        }
    }

    private static void wipe(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
