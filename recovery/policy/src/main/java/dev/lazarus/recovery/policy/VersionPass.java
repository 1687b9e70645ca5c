package dev.lazarus.recovery.policy;

/** Which checkpoint versions one pass of a restart may pick. */
public enum VersionPass {
    /** Versions written from state an acceptance check has passed (recovery invariant 2). */
    VERIFIED_ONLY,
    /** Any version, those a resumed run wrote before its check included. */
    ANY
}
