package dev.lazarus.recovery.policy.failure;

/** What kind of failure ended a launch, as the coordinator classifies it; it fixes which recovery paths remain. */
public enum FailureClass {
    /** A rank process died while its node stayed up: its NVM and L1 files are intact. */
    RANK_CRASH("rank crash", true, true),
    /** A rank stopped making progress and was killed; its node is up, so NVM and L1 are intact. */
    HANG("hang", true, true),
    /** A node was lost with its NVM and RAM disk: its L1 files must come from L2 (or L3), and NVM is incomplete. */
    NODE_LOSS("node loss", false, false),
    /** Two nodes of one L2 set were lost: neither NVM nor an L2 rebuild can recover; L3 or the beginning. */
    L2_SET_LOST("two nodes lost in one L2 set", false, false),
    /** A write failed for lack of space: the newest version may be incomplete; NVM, reserved up front, is intact. */
    DISK_FULL("disk full", true, true),
    /** A checkpoint failed its checksum: that version is skipped on that level; NVM is intact. */
    CORRUPT_CHECKPOINT("corrupt checkpoint", true, true);

    private final String description;
    private final boolean nvmIntact;
    private final boolean l1Intact;

    FailureClass(String description, boolean nvmIntact, boolean l1Intact) {
        this.description = description;
        this.nvmIntact = nvmIntact;
        this.l1Intact = l1Intact;
    }

    /** @return how the log and the status report name it */
    public String description() {
        return description;
    }

    /** @return whether every rank's NVM state survived this kind of failure */
    public boolean nvmIntact() {
        return nvmIntact;
    }

    /** @return whether every node's L1 files survived this kind of failure */
    public boolean l1Intact() {
        return l1Intact;
    }
}
