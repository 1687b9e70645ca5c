package dev.lazarus.recovery.policy;

/**
 * What follows a rejected NVM restart: the job starts again without its NVM state, by the same order as any start
 * without it (the newest checkpoint left, else the beginning).
 *
 * @param discardUnverified drop the versions the rejected run wrote before its check (they hold its state)
 * @param description       what the log says after "rollback: "
 */
public record Rollback(boolean discardUnverified, String description) {
}
