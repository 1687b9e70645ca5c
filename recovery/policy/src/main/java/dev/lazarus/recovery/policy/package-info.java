/**
 * The recovery decision: facts in, a decision with its reason out. The ranks gather the facts collectively (what NVM
 * held on every rank, which ranks could not restore a version from L1, which nodes of an L2 set were lost) and carry
 * out what {@link dev.lazarus.recovery.policy.RecoveryPolicy} decides; they do not decide themselves.
 * {@link dev.lazarus.recovery.policy.FixedOrderPolicy} is the first policy: NVM first, then the newest verified
 * checkpoint through L1, L2 and L3 in that order, then the beginning. It knows nothing of MPI.
 */
package dev.lazarus.recovery.policy;
