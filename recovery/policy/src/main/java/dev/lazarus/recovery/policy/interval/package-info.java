/**
 * The checkpoint interval: Young's and Daly's optimum ({@link dev.lazarus.recovery.policy.interval.YoungDaly}) and the
 * one {@code --ckpt-every auto} chooses from live measurements, extended for EasyCrash
 * ({@link dev.lazarus.recovery.policy.interval.AutoInterval}).
 */
package dev.lazarus.recovery.policy.interval;
