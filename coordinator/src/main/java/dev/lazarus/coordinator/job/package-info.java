/**
 * The coordinator's relaunch loop, in the {@code ./lazarus run} process: {@link
 * dev.lazarus.coordinator.job.JobCoordinator} runs a job's launches, classifies each failure (crash, hang), gathers
 * what the failed launch left (heartbeats, the levels' catalogs) and what the job measured so far
 * ({@link dev.lazarus.coordinator.job.JobHistory}), asks the cost-based decision of
 * {@code dev.lazarus.recovery.policy.failure} for a path, tells the next launch, and ends with a summary. The job's
 * state lives in this process; keeping it in Hazelcast comes later.
 */
package dev.lazarus.coordinator.job;
