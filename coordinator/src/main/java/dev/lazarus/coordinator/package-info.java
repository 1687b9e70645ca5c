/**
 * The job lifecycle and, later, global recovery state in Hazelcast, failure classification and the recovery
 * decision. Today it holds the {@code ./lazarus} command line ({@code cli}) and the job launcher ({@code launch})
 * that starts ranks through {@code mpirun} or MPJ Express. It never touches rank memory.
 */
package dev.lazarus.coordinator;
