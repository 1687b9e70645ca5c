package dev.lazarus.mpi.launch;

/**
 * Thrown on every rank, together, when the ranks stop after a complete checkpoint because the coordinator asked them
 * to ({@link HaltNotice}). Not a failure: {@link RankMain} exits with {@link RankMain#HALTED}, and the next run of the
 * same command resumes from that checkpoint.
 */
public final class JobHaltedException extends RuntimeException {
    private final long version;

    /** @param version the checkpoint version the ranks stopped after */
    public JobHaltedException(long version) {
        super("halted after checkpoint " + version + " (lazarus halt); run the same command to resume");
        this.version = version;
    }

    /** @return the checkpoint version the ranks stopped after */
    public long version() {
        return version;
    }
}
