package dev.lazarus.coordinator.launch;

/**
 * Asked while a launch runs ({@link JobLauncher#WATCH_PERIOD}) whether the job is to stop: after its next complete
 * checkpoint (the ranks are told through {@link dev.lazarus.mpi.launch.HaltNotice}) or now (the job is killed; NVM and
 * the checkpoints keep what they hold).
 */
@FunctionalInterface
public interface HaltCheck {
    /** Never halts. */
    HaltCheck NEVER = () -> Halt.NONE;

    /** What is due now. */
    enum Halt {
        /** Run on. */
        NONE,
        /** Stop after the next checkpoint every rank completes. */
        AFTER_CHECKPOINT,
        /** Stop now. */
        NOW
    }

    /** @return what is due now */
    Halt due();
}
