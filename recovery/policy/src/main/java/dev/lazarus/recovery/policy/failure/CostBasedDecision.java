package dev.lazarus.recovery.policy.failure;

import dev.lazarus.recovery.policy.Level;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Chooses how a failed launch recovers by the expected time to a verified result (EasyCrash §7, per failure rather
 * than on average). With {@code W(p) = (iterations - p) * t_it + t_verify}, the work left from iteration {@code p}:
 * <ul>
 *   <li><b>beginning</b>: {@code t_start + W(0)};</li>
 *   <li><b>restore version v from level L</b>: {@code t_restore(L, v) + W(v)}; what it loses is the work from v to
 *       where the run had got;</li>
 *   <li><b>NVM restart at bookmark b</b>: {@code t_nvm + W(b) + (1 - R) * (t_extra + C_rollback)}. NVM restart is
 *       judged only at the end, so a rejected one has spent the whole remaining run, and its S2 extra iterations
 *       {@code t_extra = (maxIterations - iterations) * (t_it + t_verify)}, before it rolls back to the cheapest
 *       verified version or the beginning ({@code C_rollback}).</li>
 * </ul>
 * The feasible paths follow the failure's class: NVM only when every rank's state survived and is usable, L1 only
 * when every node's RAM disk survived. With a low R the NVM term exceeds the cheapest rollback, so such an application
 * (FT) goes straight to rollback; with R near 1 NVM saves the lost work. Pure: the same facts give the same decision.
 */
public final class CostBasedDecision {

    private CostBasedDecision() {
    }

    /** Weighs every feasible path and chooses one as {@code mode} says. */
    public static RecoveryDecision decide(FailureFacts facts, RecoveryMode mode) {
        List<CostedPath> rollbacks = rollbacks(facts, false);
        CostedPath nvm = nvmRestart(facts, cheapest(rollbacks(facts, true)));
        List<CostedPath> all = new ArrayList<>();
        if (nvm != null) {
            all.add(nvm);
        }
        all.addAll(rollbacks);
        // Stable: on equal cost NVM comes first, then newer versions, cheaper levels, and the beginning last.
        all.sort(Comparator.comparingDouble(CostedPath::expectedSeconds));
        CostedPath chosen = switch (mode) {
            case AUTO -> all.getFirst();
            case NVM -> nvm != null ? nvm : cheapest(rollbacks);
            case ROLLBACK -> cheapest(rollbacks);
        };
        return new RecoveryDecision(facts, mode, chosen, all);
    }

    /** The beginning and every restorable version the failure left (verified ones only with {@code verifiedOnly}). */
    private static List<CostedPath> rollbacks(FailureFacts facts, boolean verifiedOnly) {
        List<VersionOption> versions = new ArrayList<>(facts.versions());
        versions.sort(Comparator.comparingLong(VersionOption::iteration).reversed()
                .thenComparing(VersionOption::level));
        List<CostedPath> paths = new ArrayList<>();
        for (VersionOption version : versions) {
            if (feasible(facts.failure(), version.level()) && (version.verified() || !verifiedOnly)) {
                paths.add(restore(facts, version));
            }
        }
        double start = facts.startSeconds() + remaining(facts, 0);
        paths.add(new CostedPath(CostedPath.Kind.BEGINNING, null, 0, start, String.format(Locale.ROOT,
                "set-up %s + %s", Seconds.text(facts.startSeconds()), work(facts, 0))));
        return paths;
    }

    private static boolean feasible(FailureClass failure, Level level) {
        return switch (level) {
            case L1 -> failure.l1Intact();
            case L2 -> failure != FailureClass.L2_SET_LOST;
            case L3 -> true;
        };
    }

    private static CostedPath restore(FailureFacts facts, VersionOption version) {
        long lost = Math.max(0, facts.reachedIteration() - version.iteration());
        double seconds = version.restoreSeconds() + remaining(facts, version.iteration());
        return new CostedPath(CostedPath.Kind.RESTORE, version.level(), version.iteration(), seconds,
                String.format(Locale.ROOT, "restore %s + %s; loses %d it%s",
                        Seconds.text(version.restoreSeconds()), work(facts, version.iteration()), lost,
                        version.verified() ? "" : "; unverified"));
    }

    /** The NVM restart, or null when the failure or the heaps rule it out. */
    private static CostedPath nvmRestart(FailureFacts facts, CostedPath rollbackAfterRejection) {
        NvmOption nvm = facts.nvm();
        if (!facts.failure().nvmIntact() || !nvm.usable()) {
            return null;
        }
        double r = nvm.recomputability().value();
        double extra = (facts.maxIterations() - facts.iterations())
                * (facts.iterationSeconds() + facts.verificationSeconds());
        double seconds = nvm.restartSeconds() + remaining(facts, nvm.bookmark())
                + (1.0 - r) * (extra + rollbackAfterRejection.expectedSeconds());
        return new CostedPath(CostedPath.Kind.NVM_RESTART, null, nvm.bookmark(), seconds, String.format(Locale.ROOT,
                "restart %s + %s; R %.2f (%s): %.0f%% x (extra %s + %s %s)", Seconds.text(nvm.restartSeconds()),
                work(facts, nvm.bookmark()), r, nvm.recomputability().source(), 100 * (1.0 - r),
                Seconds.text(extra), rollbackAfterRejection.name(),
                Seconds.text(rollbackAfterRejection.expectedSeconds())));
    }

    private static double remaining(FailureFacts facts, long from) {
        return Math.max(0, facts.iterations() - from) * facts.iterationSeconds() + facts.verificationSeconds();
    }

    private static String work(FailureFacts facts, long from) {
        return Math.max(0, facts.iterations() - from) + " it x " + Seconds.text(facts.iterationSeconds())
                + " + verify " + Seconds.text(facts.verificationSeconds());
    }

    private static CostedPath cheapest(List<CostedPath> paths) {
        return paths.stream().min(Comparator.comparingDouble(CostedPath::expectedSeconds)).orElseThrow();
    }
}
