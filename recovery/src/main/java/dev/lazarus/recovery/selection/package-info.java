/**
 * EasyCrash campaign analysis (paper §5): which data objects are critical and at which code regions, how often, to
 * persist them.
 *
 * <ul>
 *   <li>{@link dev.lazarus.recovery.selection.CrashTestResult} is one crash test of a campaign: where it crashed, how
 *       inconsistent each candidate object was in NVM, and the outcome ({@link
 *       dev.lazarus.recovery.selection.CrashTestOutcome}, S1..S4).</li>
 *   <li>{@link dev.lazarus.recovery.selection.CriticalObjectSelector} is step 2: Spearman rank correlation between
 *       each candidate's inconsistent rate and success, with a t-distribution p-value (§5.1).</li>
 *   <li>{@link dev.lazarus.recovery.selection.RegionRecomputability} turns a campaign into per-region
 *       recomputability c_k and the application recomputability Y = Σ a_k c_k (Eq. 1).</li>
 *   <li>{@link dev.lazarus.recovery.selection.RegionSelector} is step 3's decision: a multiple-choice knapsack over
 *       regions and persistence intervals under the runtime-overhead budget t_s (Eq. 2-5), giving a
 *       {@link dev.lazarus.recovery.selection.RegionPlan}.</li>
 * </ul>
 *
 * Everything here is pure computation on values: no I/O, no global state.
 */
package dev.lazarus.recovery.selection;
