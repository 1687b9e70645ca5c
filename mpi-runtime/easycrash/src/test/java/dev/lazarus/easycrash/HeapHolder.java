package dev.lazarus.easycrash;

import java.nio.file.Path;

/**
 * A separate process that attaches rank 0's heap of a job, bookmarks iteration 3, says {@code attached} and waits to
 * be killed: the live rank of an earlier launch in {@link RankLockProcessTest}.
 */
public final class HeapHolder {
    private HeapHolder() {
    }

    public static void main(String[] args) throws Exception {
        PersistentHeap.Config config = new PersistentHeap.Config(Path.of(args[0]), args[1], 0, 1, 1 << 20,
                "app --class S", null);
        PersistentHeap heap = PersistentHeap.open(config);
        heap.doubles("u", 100, ObjectRole.CANDIDATE).set(5, 5.0);
        heap.bookmark(3);
        System.out.println("attached");
        System.out.flush();
        Thread.sleep(120_000);
        heap.close();
    }
}
