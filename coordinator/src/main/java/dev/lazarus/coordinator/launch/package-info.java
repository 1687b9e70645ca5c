/**
 * Starting a job: {@link dev.lazarus.coordinator.launch.JobLauncher} turns a
 * {@link dev.lazarus.coordinator.launch.LaunchRequest} into an {@code mpirun} or MPJ Express command, runs it, and
 * derives the job's exit status from the launcher's own status and the ranks' status files.
 */
package dev.lazarus.coordinator.launch;
