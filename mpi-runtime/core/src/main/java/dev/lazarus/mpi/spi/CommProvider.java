package dev.lazarus.mpi.spi;

import dev.lazarus.mpi.Comm;

import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * An MPI backend. Exactly one is on a rank's class path; the launcher chooses it with {@code --backend}.
 */
public interface CommProvider {

    /** The backend's name as users choose it: {@code openmpi} or {@code mpj}. */
    String name();

    /**
     * Initializes MPI for this process (or, under MPJ's multicore device, this rank's thread).
     *
     * @param args the process arguments, which may carry the backend's own leading arguments
     * @return the world communicator and the arguments left for the application
     */
    Started start(String[] args);

    /** Finalizes MPI. */
    void finish();

    /**
     * Ends the rank with {@code status} where the backend runs one rank per process. Backends whose ranks share a
     * process (MPJ multicore) return instead; the launcher then reads the status files.
     */
    void exit(int status);

    /**
     * @param comm the world communicator
     * @param args the application's arguments
     */
    record Started(Comm comm, String[] args) {
    }

    /**
     * Finds the one backend on the class path of {@code loader}.
     *
     * @throws IllegalStateException when there is none or more than one, naming what was found
     */
    static CommProvider load(ClassLoader loader) {
        List<CommProvider> found = ServiceLoader.load(CommProvider.class, loader).stream()
                .map(ServiceLoader.Provider::get).toList();
        if (found.size() != 1) {
            String names = found.stream().map(CommProvider::name).collect(Collectors.joining(",", " [", "]"));
            throw new IllegalStateException("expected exactly one MPI backend on the class path, found "
                    + found.size() + names);
        }
        return found.getFirst();
    }
}
