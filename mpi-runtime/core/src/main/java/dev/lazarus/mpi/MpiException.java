package dev.lazarus.mpi;

/** An MPI backend reported an error. The message names the operation and the backend's own error text. */
public final class MpiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MpiException(String message, Throwable cause) {
        super(message, cause);
    }

    public MpiException(String message) {
        super(message);
    }
}
