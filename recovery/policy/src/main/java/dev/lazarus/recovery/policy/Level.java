package dev.lazarus.recovery.policy;

/** The checkpoint levels, as the policy orders them. */
public enum Level {
    /** The node's RAM disk. */
    L1,
    /** L1 after the node's files were rebuilt from its L2 set. */
    L2,
    /** The parallel file system. */
    L3
}
