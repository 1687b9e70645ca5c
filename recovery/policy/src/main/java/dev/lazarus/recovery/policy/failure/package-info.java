/**
 * The coordinator's decision per failure: which paths a failure leaves ({@link
 * dev.lazarus.recovery.policy.failure.FailureClass}), what each costs in expected time to a verified result, and the
 * cheapest ({@link dev.lazarus.recovery.policy.failure.CostBasedDecision}, after EasyCrash §7). Facts in, a decision
 * with every path's numbers out; nothing of MPI, processes or files.
 */
package dev.lazarus.recovery.policy.failure;
