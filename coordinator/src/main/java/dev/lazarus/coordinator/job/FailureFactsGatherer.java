package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.HostLoss;
import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.recovery.policy.Level;
import dev.lazarus.recovery.policy.failure.FailureClass;
import dev.lazarus.recovery.policy.failure.FailureFacts;
import dev.lazarus.recovery.policy.failure.NvmOption;
import dev.lazarus.recovery.policy.failure.Recomputability;
import dev.lazarus.recovery.policy.failure.VersionOption;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns what a failed launch left (its ranks' last heartbeats, the levels' catalogs) and what the job's history
 * measured into the facts the recovery decision weighs. Unmeasured times are estimated the same way for every path:
 * a verification costs an iteration; the start every relaunch pays is left out of all of them.
 */
final class FailureFactsGatherer {

    private FailureFactsGatherer() {
    }

    /**
     * @param loss       the nodes the launch lost (named where the failure was)
     * @param planned    the plan's predicted recomputability, or null without a plan (or one that predicts none)
     * @param nvmAllowed false when NVM restart is off for this job ({@code --no-nvm-restart}, plain arrays)
     * @param versions   the versions the levels hold ({@link RestoreSources#versions})
     * @return the facts, or empty when no rank reached its main loop (there is nothing to weigh)
     */
    static Optional<FailureFacts> gather(FailureClass failure, LaunchOutcome outcome, HostLoss loss,
                                         JobHistory history,
                                         List<RestoreSources.Listed> versions, Double planned, boolean nvmAllowed) {
        List<Optional<HeartbeatSnapshot>> all = outcome.heartbeats();
        List<HeartbeatSnapshot> beats = all.stream().flatMap(Optional::stream)
                .filter(b -> b.lastBeatMillis() > 0).toList();
        if (beats.isEmpty()) {
            return Optional.empty();
        }
        int iterations = beats.stream().mapToInt(HeartbeatSnapshot::iterations).max().orElseThrow();
        int maxIterations = Math.max(iterations, beats.stream().mapToInt(HeartbeatSnapshot::maxIterations).max()
                .orElseThrow());
        int reached = beats.stream().mapToInt(HeartbeatSnapshot::iteration).max().orElseThrow();
        // Measured by this run or an earlier one of the job; else the failed launch's time over the iterations it
        // covered (set-up included, so too long rather than too short).
        double iteration = finiteOr(history.iterationSeconds(), outcome.seconds() / Math.max(1, reached
                - beats.stream().mapToInt(HeartbeatSnapshot::firstIteration).min().orElse(1) + 1));
        double verification = finiteOr(history.verificationSeconds(), iteration);
        double lastSetUp = beats.stream().mapToLong(HeartbeatSnapshot::setUpNanos).max().orElse(0) * 1e-9;
        double start = finiteOr(history.freshSetUpSeconds(), lastSetUp);
        // Every relaunch pays its JVMs' start and the application's set-up, so they are left out of every path; what
        // differs is the beginning's fresh start (warm-up included, as measured) and each restore's read. An NVM
        // restart adds only the heaps' attach and agreement, which a restore pays as well.
        NvmOption nvm = nvm(failure, outcome, all, beats, history, planned, nvmAllowed);
        return Optional.of(new FailureFacts(failure, where(outcome, loss), Math.min(reached, maxIterations), iterations,
                maxIterations, iteration, verification, start, nvm, options(failure, loss, versions, history)));
    }

    /**
     * @return the versions as the decision weighs them: after a node loss in a job with L2, each L1 version whose
     *         parity every node had written also as L2 (the lost node's files rebuilt from its set first, read at L2's
     *         measured or assumed bandwidth), since L1 alone no longer serves
     */
    private static List<VersionOption> options(FailureClass failure, HostLoss loss,
                                               List<RestoreSources.Listed> versions, JobHistory history) {
        List<VersionOption> options = new ArrayList<>(versions.stream().map(RestoreSources.Listed::option).toList());
        if (failure == FailureClass.NODE_LOSS && loss.setSize() > 0) {
            double l2 = history.restoreBytesPerSecond().getOrDefault(Level.L2, RestoreSources.L2_BYTES_PER_SECOND);
            versions.stream().filter(v -> v.option().level() == Level.L1 && v.l2Parity()).forEach(v -> options.add(
                    new VersionOption(Level.L2, v.option().iteration(), v.bytes() / l2, v.option().verified())));
        }
        return options;
    }

    private static NvmOption nvm(FailureClass failure, LaunchOutcome outcome, List<Optional<HeartbeatSnapshot>> all,
                                 List<HeartbeatSnapshot> beats, JobHistory history, Double planned,
                                 boolean nvmAllowed) {
        if (!nvmAllowed) {
            return NvmOption.unusable("NVM restart is off for this job");
        }
        if (outcome.kind() == LaunchOutcome.Kind.NVM_ATTEMPT_FAILED) {
            return NvmOption.unusable("the NVM restart threw and was recorded");
        }
        if (beats.size() < all.size()) {
            return NvmOption.unusable("some rank never reached its main loop, so it left no bookmark");
        }
        if (!beats.stream().allMatch(HeartbeatSnapshot::persistent)) {
            return NvmOption.unusable("the objects are plain arrays");
        }
        int bookmark = beats.stream().mapToInt(HeartbeatSnapshot::iteration).min().orElseThrow();
        Recomputability r = Recomputability.estimate(planned, history.nvmAttempts(), history.nvmAccepted());
        // Its own cost beyond the start every relaunch pays is the heaps' attach and agreement: nothing to add.
        return new NvmOption(failure.nvmIntact(), bookmark, 0.0, r,
                failure.nvmIntact() ? null : failure.description() + " lost NVM");
    }

    private static String where(LaunchOutcome outcome, HostLoss loss) {
        if (loss.any()) {
            List<String> nodes = loss.lost().stream().map(HostLoss.LostHost::host).toList();
            return (nodes.size() == 1 ? "node " + nodes.getFirst() : "nodes " + nodes) + " lost; "
                    + where(outcome, HostLoss.NONE);
        }
        if (outcome.hang() != null) {
            return outcome.hang();
        }
        List<Integer> silent = outcome.silentRanks();
        String full = LevelIncidents.full(outcome).map(f -> f + "; ").orElse("");
        return full + (silent.isEmpty() ? "no rank named" : (silent.size() == 1 ? "rank " : "ranks ")
                + (silent.size() == 1 ? silent.getFirst().toString() : silent.toString()) + " without a status");
    }

    private static double finiteOr(double value, double otherwise) {
        return Double.isFinite(value) ? value : otherwise;
    }
}
