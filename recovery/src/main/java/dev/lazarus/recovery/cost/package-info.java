/**
 * Cost models for choosing between recomputation and rollback, on the checkpoint interval of
 * {@link dev.lazarus.recovery.policy.interval.YoungDaly} (Young's first-order formula, Daly's higher-order one, and the
 * expected lost work per failure), which the runtime uses for {@code --ckpt-every auto}.
 *
 * <ul>
 *   <li>{@link dev.lazarus.recovery.cost.EasyCrashEfficiency}: the EasyCrash paper's system-efficiency model with and
 *       without recomputation from NVM (§7, Eq. 6-9, and Eq. 10-12 of Appendix A.8), for the parameters in
 *       {@link dev.lazarus.recovery.cost.SystemParameters}.</li>
 *   <li>{@link dev.lazarus.recovery.cost.Tau}: the least recomputability that makes EasyCrash worth it.</li>
 * </ul>
 *
 * Everything here is pure computation on values: no I/O, no global state.
 */
package dev.lazarus.recovery.cost;
