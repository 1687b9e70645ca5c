package dev.lazarus.coordinator.job;

import dev.lazarus.coordinator.launch.HaltCheck;
import dev.lazarus.coordinator.state.HaltRequest;
import dev.lazarus.coordinator.state.StateFiles;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;

/**
 * The {@link HaltCheck} of a job that keeps its state: a pending {@link HaltRequest} in the job's state directory,
 * once it has taken effect. A job that takes no checkpoints has no checkpoint to stop after, so it halts at once (NVM
 * keeps its state). Each change is announced once.
 */
final class HaltRequests implements HaltCheck {
    private final StateFiles files;
    private final boolean checkpointing;
    private final PrintStream err;
    private Halt announced = Halt.NONE;
    private String refused;

    /** @param checkpointing whether the job takes checkpoints */
    HaltRequests(StateFiles files, boolean checkpointing, PrintStream err) {
        this.files = files;
        this.checkpointing = checkpointing;
        this.err = err;
    }

    @Override
    public Halt due() {
        Optional<HaltRequest> request;
        try {
            request = HaltRequest.read(files);
        } catch (IOException e) {
            if (!e.getMessage().equals(refused)) {
                refused = e.getMessage();
                err.println("lazarus: halt request ignored: " + refused);
            }
            return Halt.NONE;
        }
        Halt due = request.filter(r -> r.due(System.currentTimeMillis()))
                .map(r -> r.now() || !checkpointing ? Halt.NOW : Halt.AFTER_CHECKPOINT).orElse(Halt.NONE);
        if (due != Halt.NONE && due != announced) {
            err.println("lazarus: halt requested: " + (due == Halt.NOW ? (checkpointing ? "stopping the job now"
                    : "the job takes no checkpoints, so it stops now") : "stopping after the next checkpoint"));
        }
        announced = due;
        return due;
    }
}
