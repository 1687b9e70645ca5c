package dev.lazarus.mpi;

/**
 * An MPI application that Lazarus launches on every rank. Implementations have a public no-argument constructor and
 * are listed in {@code META-INF/services/dev.lazarus.mpi.MpiApplication} so that {@code ./lazarus run NAME} finds them
 * by {@link #name()}.
 */
public interface MpiApplication {

    /** The name users launch the application by, for example {@code npb.CG}. Defaults to the class name. */
    default String name() {
        return getClass().getName();
    }

    /**
     * Runs the application on this rank.
     *
     * @param comm the world communicator
     * @param args the application's own arguments
     * @return the exit status: 0 for success (including a successful verification), non-zero otherwise
     * @throws IllegalArgumentException for bad application arguments; the launcher prints the message on one line
     */
    int run(Comm comm, String[] args) throws Exception;
}
