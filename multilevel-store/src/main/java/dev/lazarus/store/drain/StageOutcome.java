package dev.lazarus.store.drain;

/**
 * What one {@link DrainStage} did with one version.
 *
 * @param stage  the stage's name
 * @param status done, skipped or failed
 * @param bytes  bytes written to the level (done only, else 0)
 * @param reason why it was skipped or failed, one line; null when done
 */
public record StageOutcome(String stage, Status status, long bytes, String reason) {

    /** How a stage ended. */
    public enum Status {
        /** The stage did its work. */
        DONE,
        /** The stage had nothing to do, for the reason given; the drain goes on. */
        SKIPPED,
        /** The stage could not do its work, for the reason given; the drain stops. */
        FAILED
    }

    /** @throws IllegalArgumentException if a skipped or failed outcome has no reason, or a done one has one */
    public StageOutcome {
        if ((status == Status.DONE) != (reason == null)) {
            throw new IllegalArgumentException("stage " + stage + " " + status + " with reason=" + reason
                    + ": done has none, skipped and failed need one");
        }
    }

    /** @return a stage that wrote {@code bytes} to the level */
    public static StageOutcome done(String stage, long bytes) {
        return new StageOutcome(stage, Status.DONE, bytes, null);
    }

    /** @return a stage that had nothing to do */
    public static StageOutcome skipped(String stage, String reason) {
        return new StageOutcome(stage, Status.SKIPPED, 0, reason);
    }

    /** @return a stage that could not do its work */
    public static StageOutcome failed(String stage, String reason) {
        return new StageOutcome(stage, Status.FAILED, 0, reason);
    }

    /** @return "stage: done 123 bytes", "stage: skipped (reason)" or "stage: failed (reason)" */
    public String describe() {
        return switch (status) {
            case DONE -> stage + ": done " + bytes + " bytes";
            case SKIPPED -> stage + ": skipped (" + reason + ")";
            case FAILED -> stage + ": failed (" + reason + ")";
        };
    }
}
