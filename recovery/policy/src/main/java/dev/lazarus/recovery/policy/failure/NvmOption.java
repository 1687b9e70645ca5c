package dev.lazarus.recovery.policy.failure;

/**
 * What an NVM restart would start from.
 *
 * @param usable          every rank's heap and bookmark can be resumed (checked as the ranks will check it)
 * @param bookmark        the lowest bookmarked iteration over the ranks (they resume there)
 * @param restartSeconds  the time to re-attach the heaps and agree (measured, or an estimate)
 * @param recomputability the chance that the resumed run passes its acceptance verification
 * @param unusableReason  why NVM cannot serve, when not usable; else null
 */
public record NvmOption(boolean usable, int bookmark, double restartSeconds, Recomputability recomputability,
                        String unusableReason) {

    /** NVM that cannot serve a restart, for {@code reason}. */
    public static NvmOption unusable(String reason) {
        return new NvmOption(false, 0, 0.0, Recomputability.unknown(), reason);
    }
}
