package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.HaltCheck;
import dev.lazarus.coordinator.launch.LaunchOutcome;
import dev.lazarus.coordinator.launch.LaunchPlan;
import dev.lazarus.coordinator.launch.LaunchWatcher;
import dev.lazarus.mpi.launch.HangWatch;
import dev.lazarus.mpi.launch.LaunchDirective;

import java.io.IOException;

/** Runs one launch of a job: {@link dev.lazarus.coordinator.launch.JobLauncher#launch}, or a test's script. */
@FunctionalInterface
public interface Launches {

    /**
     * Runs {@code plan} once with {@code directive}, watching for hangs and halts, and says how it ended;
     * {@code watcher} sees the launch start.
     */
    LaunchOutcome launch(LaunchPlan plan, LaunchDirective directive, HangWatch hangs, HaltCheck halts,
                         LaunchWatcher watcher) throws IOException, InterruptedException;
}
