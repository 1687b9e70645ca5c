package dev.lazarus.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.ProtectedRegion;
import dev.lazarus.store.Variable;
import dev.lazarus.store.dirty.AllPagesScanner;
import dev.lazarus.store.format.ManifestLayout;
import dev.lazarus.store.incremental.IncrementalCheckpointer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest {
    @TempDir
    Path dir;

    /** Ranks 0 and 1 write versions 1 to 6; every 3rd is full, so the chains are 1-3 and 4-6. */
    private CheckpointDirectory sixVersions() throws IOException {
        return versions(6, 3);
    }

    /** Ranks 0 and 1 write versions 1 to {@code count}, a full one every {@code fullEvery}. */
    private CheckpointDirectory versions(int count, int fullEvery) throws IOException {
        CheckpointDirectory l1 = new CheckpointDirectory(dir, "job");
        for (int rank = 0; rank < 2; rank++) {
            double[] u = new double[1024];
            try (var ckpt = new IncrementalCheckpointer(l1, rank, 2, 512, fullEvery, new AllPagesScanner("test"))) {
                ckpt.protect(new ProtectedRegion(new Variable("u", ElementType.DOUBLE, new long[] {1024}),
                        MemorySegment.ofArray(u)));
                for (int v = 1; v <= count; v++) {
                    u[v] = v;
                    ckpt.checkpoint(v);
                }
            }
        }
        return l1;
    }

    @Test
    void theNewestCompleteVersionsAreKeptAndOnlyOlderOnesGo() throws IOException {
        CheckpointDirectory l3 = versions(7, 1);
        List<Long> asked = new ArrayList<>();
        Set<Long> complete = Set.of(1L, 3L, 5L, 7L);
        // 7 is complete but newer than the newest that may be kept; 4 is incomplete between the kept 3 and 5.
        assertEquals(Set.of(1L, 2L), Retention.pruneToNewestComplete(l3, 0, 6, 2, v -> {
            asked.add(v);
            return complete.contains(v);
        }));
        assertEquals(List.of(6L, 5L, 4L, 3L), asked, "asked newest first, until two are found");
        for (long v = 1; v <= 7; v++) {
            assertEquals(v >= 3, Files.exists(l3.manifestFile(v, 0)), "rank 0 version " + v);
            assertTrue(Files.exists(l3.manifestFile(v, 1)), "rank 1's files are never touched");
        }
    }

    @Test
    void theOnlyCompleteVersionStaysAndIncompleteOlderOnesAreGarbage() throws IOException {
        CheckpointDirectory l3 = versions(6, 1);
        assertEquals(Set.of(), Retention.pruneToNewestComplete(l3, 0, 6, 2, v -> false),
                "with no complete version nothing is known to be garbage");
        assertEquals(Set.of(1L, 2L, 3L), Retention.pruneToNewestComplete(l3, 0, 6, 2, v -> v == 4));
        assertEquals(Set.of(1L, 2L, 3L), Retention.pruneToNewestComplete(l3, 1, 6, 2, v -> v == 4));
        assertEquals(List.of(4L, 5L, 6L), l3.versions(), "4, and 5 and 6 newer than it, stay");
        assertEquals(Set.of(), Retention.pruneToNewestComplete(l3, 0, 6, 0, v -> {
            throw new AssertionError("keep=0 keeps every version without asking");
        }));
    }

    @Test
    void keepsTheChainsOfKeptVersionsAndNothingElseOfTheRank() throws IOException {
        CheckpointDirectory l1 = sixVersions();
        assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 0, List.of(5L)));
        for (long v = 1; v <= 6; v++) {
            assertEquals(v >= 4, Files.exists(l1.manifestFile(v, 0)), "rank 0 version " + v);
            assertTrue(Files.exists(l1.manifestFile(v, 1)), "rank 1's files are never touched");
        }
        assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 1, List.of(5L)));
        assertEquals(List.of(4L, 5L, 6L), l1.versions(), "empty version directories go");
    }

    @Test
    void versionsNewerThanTheNewestKeptAreLeftForTheRankWritingThem() throws IOException {
        CheckpointDirectory l1 = sixVersions();
        assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 0, List.of(4L)));
        assertTrue(Files.exists(l1.manifestFile(6, 0)), "version 6 is newer than every kept version");
        assertEquals(Set.of(4L, 5L, 6L), Retention.prune(l1, 0, List.of()), "keeping nothing deletes everything");
    }

    @Test
    void knownParentsAreFollowedWithoutReadingTheirManifests() throws IOException {
        CheckpointDirectory l1 = sixVersions();
        // Version 4's manifest is unreadable: read, the chain of 5 is damaged and only 5 itself would be kept.
        Files.write(l1.manifestFile(4, 0), new byte[] {1, 2, 3});
        Map<Long, Long> parents = Map.of(5L, 4L, 4L, ManifestLayout.NO_PARENT);
        assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 0, List.of(5L), v -> lookup(parents, v)));
        assertTrue(Files.exists(l1.manifestFile(4, 0)), "version 4 is in the known chain of 5");
    }

    @Test
    void manifestsAreReadFromTheFirstUnknownParentOn() throws IOException {
        CheckpointDirectory l1 = sixVersions();
        assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 0, List.of(6L), v -> lookup(Map.of(6L, 5L), v)));
        for (long v = 4; v <= 6; v++) {
            assertTrue(Files.exists(l1.manifestFile(v, 0)), "rank 0 version " + v);
        }
        assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 1, List.of(5L), v -> OptionalLong.empty()),
                "knowing nothing is the 3-argument prune");
    }

    @Test
    void theCheckpointerKnowsTheParentsItWrote() throws IOException {
        CheckpointDirectory l1 = new CheckpointDirectory(dir, "job");
        double[] u = new double[1024];
        try (var ckpt = new IncrementalCheckpointer(l1, 0, 1, 512, 3, new AllPagesScanner("test"))) {
            ckpt.protect(new ProtectedRegion(new Variable("u", ElementType.DOUBLE, new long[] {1024}),
                    MemorySegment.ofArray(u)));
            for (int v = 1; v <= 6; v++) {
                u[v] = v;
                ckpt.checkpoint(v);
            }
            assertEquals(OptionalLong.of(ManifestLayout.NO_PARENT), ckpt.parentOf(4));
            assertEquals(OptionalLong.of(4), ckpt.parentOf(5));
            assertEquals(OptionalLong.empty(), ckpt.parentOf(7));
            assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 0, List.of(5L), ckpt::parentOf));
            assertEquals(List.of(4L, 5L, 6L), l1.versions());
            ckpt.restored();
            assertEquals(OptionalLong.empty(), ckpt.parentOf(5), "a restore forgets what was written");
            assertTrue(ckpt.checkpoint(7).full(), "the checkpoint after a restore is full");
            assertEquals(OptionalLong.of(ManifestLayout.NO_PARENT), ckpt.parentOf(7));
        }
    }

    private static OptionalLong lookup(Map<Long, Long> parents, long version) {
        Long parent = parents.get(version);
        return parent == null ? OptionalLong.empty() : OptionalLong.of(parent);
    }

    /**
     * Issue 13 item 9: a crash after rank 0 pruned a version and before rank 1 did leaves a version that is being
     * pruned, not a damaged one: the catalog says so, and nothing counts it as restorable.
     */
    @Test
    void aCrashPartWayThroughPruningLeavesARetiredVersionNotDamage() throws IOException {
        CheckpointDirectory l1 = sixVersions();
        assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 0, List.of(6L))); // rank 0 pruned; rank 1 crashed
        dev.lazarus.store.catalog.VersionStatus status = new dev.lazarus.store.catalog.Catalog(l1).status(2, true);
        assertTrue(status.retired(), status.toString());
        assertTrue(!status.complete() && !status.damaged(), status.toString());
        assertTrue(new dev.lazarus.store.catalog.Catalog(l1).status(6, true).complete());
        assertTrue(l1.isRetired(1) && l1.isRetired(3));
        // Rank 1 prunes at the next launch: the directories go, marker and all.
        assertEquals(Set.of(1L, 2L, 3L), Retention.prune(l1, 1, List.of(6L)));
        assertEquals(List.of(4L, 5L, 6L), l1.versions());
    }

    /** Recovery invariant 2: preserved versions survive L3 pruning whatever newer versions complete. */
    @Test
    void preservedVersionsAreNotPrunedFromL3() throws IOException {
        CheckpointDirectory l3 = versions(7, 1);
        assertEquals(Set.of(1L, 3L, 4L, 5L), Retention.pruneToNewestComplete(l3, 0, 7, 2, v -> v >= 5, Set.of(2L)));
        assertTrue(Files.exists(l3.manifestFile(2, 0)));
    }
}
