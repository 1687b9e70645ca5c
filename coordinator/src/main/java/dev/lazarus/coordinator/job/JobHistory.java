package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.mpi.launch.HeartbeatFile.HeartbeatSnapshot;
import dev.lazarus.mpi.launch.HeartbeatFile.Restore;
import dev.lazarus.recovery.policy.Level;
import dev.lazarus.recovery.policy.failure.RecoveryDecision;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the coordinator has seen of one job so far: its launches, failures and decisions, and the measurements the
 * next decision uses (iteration time, set-up, verification, how NVM restarts fared, each level's read bandwidth).
 */
final class JobHistory {
    private final List<LaunchOutcome> launches = new ArrayList<>();
    /** When each launch began, epoch milliseconds (0: not known). */
    private final List<Long> launchStarts = new ArrayList<>();
    private final List<Failure> failures = new ArrayList<>();
    private int nvmAttempts;
    private int nvmAccepted;
    private double freshSetUpSeconds = Double.NaN;
    private double verificationSeconds = Double.NaN;
    private double iterationSeconds = Double.NaN;
    private final Map<Level, Double> restoreBytesPerSecond = new EnumMap<>(Level.class);

    /**
     * One failure and what was done about it.
     *
     * @param launch          the launch that failed (1-based)
     * @param decision        the decision, or null when there was nothing to weigh (no progress recorded)
     * @param decisionMillis  the time from the end of the failed launch to the decision
     * @param lostSeconds     the work the chosen path does again: iterations from where it resumes to where the
     *                        run had got, at the measured iteration time
     * @param downSeconds     the time the job did no work: from the failed launch's last sign of life to the next
     *                        launch's main loop (its slowest rank's); NaN until that launch is back at work, and
     *                        for good when it never was
     */
    record Failure(int launch, String failureClass, RecoveryDecision decision, double decisionMillis,
                   double lostSeconds, double downSeconds) {

        /** A failure whose downtime is not known yet. */
        Failure(int launch, String failureClass, RecoveryDecision decision, double decisionMillis,
                double lostSeconds) {
            this(launch, failureClass, decision, decisionMillis, lostSeconds, Double.NaN);
        }

        Failure backAtWorkAfter(double seconds) {
            return new Failure(launch, failureClass, decision, decisionMillis, lostSeconds, seconds);
        }
    }

    /**
     * Starts from what earlier runs of the job measured, as its state kept them: their NVM restarts, and their
     * iteration time until this run measures its own.
     *
     * @param iterationSeconds      the earlier iteration time, or null when none was measured
     * @param restoreBytesPerSecond the read bandwidths earlier restores measured, by level name
     */
    void seed(int attempts, int accepted, Double iterationSeconds, Map<String, Double> restoreBytesPerSecond) {
        nvmAttempts += attempts;
        nvmAccepted += accepted;
        if (iterationSeconds != null && Double.isNaN(this.iterationSeconds)) {
            this.iterationSeconds = iterationSeconds;
        }
        for (Level level : Level.values()) {
            Double earlier = restoreBytesPerSecond.get(level.name());
            if (earlier != null && Double.isFinite(earlier) && earlier > 0) {
                this.restoreBytesPerSecond.putIfAbsent(level, earlier);
            }
        }
    }

    /** The bytes of a version as the level a restore read lists it, or empty when it does not list it complete. */
    interface VersionBytes {
        OptionalLong bytes(Level level, long version);
    }

    /**
     * Records a launch's end and what its heartbeats measured.
     *
     * @param startedMillis when the launch began, epoch milliseconds (0: not known): the start of a failure's
     *                      downtime when the failed launch's ranks gave no sign of life at all
     * @param sources       the bytes of the versions the launch could restore ({@link RestoreSources#bytes})
     */
    void launched(LaunchOutcome outcome, long startedMillis, VersionBytes sources) {
        launches.add(outcome);
        launchStarts.add(startedMillis);
        List<HeartbeatSnapshot> beats = outcome.heartbeats().stream().flatMap(Optional::stream).toList();
        if (beats.isEmpty()) {
            return;
        }
        measureDowntime(outcome);
        measureRestore(beats, sources);
        double slowest = beats.stream().mapToDouble(HeartbeatSnapshot::medianIterationSeconds)
                .filter(Double::isFinite).max().orElse(Double.NaN);
        if (Double.isFinite(slowest)) {
            iterationSeconds = slowest;
        }
        HeartbeatSnapshot any = beats.getFirst();
        double setUp = beats.stream().mapToLong(HeartbeatSnapshot::setUpNanos).max().orElse(0) * 1e-9;
        if (!any.resumedFromNvm() && !any.restored().any() && any.lastBeatMillis() > 0) {
            freshSetUpSeconds = setUp;
        }
        if (beats.stream().allMatch(HeartbeatSnapshot::finished)) {
            verificationSeconds = beats.stream().mapToLong(HeartbeatSnapshot::verificationNanos).max().orElse(0)
                    * 1e-9;
        }
        if (any.resumedFromNvm()) {
            // A resumed launch that reached its verdict tells whether NVM restart works for this job; one that crashed
            // again, or threw, tells nothing about the result (a throw is its own failure class).
            if (beats.stream().allMatch(HeartbeatSnapshot::finished)) {
                nvmAttempts++;
                if (beats.stream().allMatch(b -> b.accepted() && !b.rolledBack())) {
                    nvmAccepted++;
                }
            }
        }
    }

    /**
     * When this launch follows a failed one and every rank reached its main loop, the failure's downtime: from the
     * failed launch's last sign of life (its ranks' newest beat or set-up step, within an iteration of the failure;
     * the launch's start when no rank gave any, as when they hang in their JVM's start) to this launch's main loop,
     * its slowest rank's start. Detection, the decision, the relaunch, JVM start, set-up and the restore all fall in
     * it.
     */
    private void measureDowntime(LaunchOutcome outcome) {
        int thisLaunch = launches.size();
        if (failures.isEmpty() || failures.getLast().launch() != thisLaunch - 1
                || outcome.heartbeats().stream().anyMatch(b -> b.isEmpty() || b.get().mainLoopBeganMillis() <= 0)) {
            return;
        }
        List<HeartbeatSnapshot> beats = outcome.heartbeats().stream().map(Optional::orElseThrow).toList();
        long lastSign = Math.max(launchStarts.get(thisLaunch - 2), launches.get(thisLaunch - 2).heartbeats().stream()
                .flatMap(Optional::stream).mapToLong(HeartbeatSnapshot::lastSignOfLifeMillis).max().orElse(0));
        long backAtWork = beats.stream().mapToLong(HeartbeatSnapshot::mainLoopBeganMillis).max().orElseThrow();
        if (lastSign > 0 && backAtWork >= lastSign) {
            failures.set(failures.size() - 1, failures.getLast().backAtWorkAfter((backAtWork - lastSign) * 1e-3));
        }
    }

    /**
     * A launch whose every rank restored the same version measures the read bandwidth of the deepest level any rank
     * read from: the version's bytes over the slowest rank's restore.
     */
    private void measureRestore(List<HeartbeatSnapshot> beats, VersionBytes sources) {
        Restore restore = Restore.ofLaunch(beats.stream().map(HeartbeatSnapshot::restored).toList());
        if (restore.level() < 1 || restore.nanos() <= 0) {
            return;
        }
        Level level = Level.values()[restore.level() - 1];
        sources.bytes(level, restore.version()).ifPresent(bytes -> {
            if (bytes > 0) {
                restoreBytesPerSecond.put(level, bytes / (restore.nanos() * 1e-9));
            }
        });
    }

    /** @return the read bandwidth restores measured, bytes per second, by level; none before a restore */
    Map<Level, Double> restoreBytesPerSecond() {
        return Map.copyOf(restoreBytesPerSecond);
    }

    void failed(Failure failure) {
        failures.add(failure);
    }

    List<LaunchOutcome> launches() {
        return List.copyOf(launches);
    }

    List<Failure> failures() {
        return List.copyOf(failures);
    }

    int nvmAttempts() {
        return nvmAttempts;
    }

    int nvmAccepted() {
        return nvmAccepted;
    }

    /** @return the set-up of the last start from the beginning, seconds, or NaN before one was measured */
    double freshSetUpSeconds() {
        return freshSetUpSeconds;
    }

    /** @return one verification's time, seconds, or NaN before a run reached its verdict */
    double verificationSeconds() {
        return verificationSeconds;
    }

    /** @return the slowest rank's median iteration time, seconds, or NaN before one was measured */
    double iterationSeconds() {
        return iterationSeconds;
    }
}
