package dev.lazarus.easycrash;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;

/**
 * An application that can be prepared as a {@link Recomputable} without running it: what a crash-test campaign needs
 * to run it many times, traced and restarted, inside one process.
 */
public interface RecomputableApplication extends MpiApplication {

    /**
     * Parses {@code args} and does the set-up that precedes the persistent heap (partitioning, input generation).
     *
     * @throws IllegalArgumentException for bad arguments or an unsupported rank count
     */
    Recomputable prepare(Comm comm, String[] args);
}
