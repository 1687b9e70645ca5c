/**
 * One launch of a job: {@link dev.lazarus.coordinator.launch.JobLauncher} turns a
 * {@link dev.lazarus.coordinator.launch.LaunchRequest} into an {@code mpirun} or MPJ Express command, runs it with the
 * coordinator's launch directive, watches the ranks' heartbeats for a hang ({@link
 * dev.lazarus.mpi.launch.HangWatch}), and says how the launch ended ({@link
 * dev.lazarus.coordinator.launch.LaunchOutcome}) from the launcher's own status and the ranks' status files.
 */
package dev.lazarus.coordinator.launch;
