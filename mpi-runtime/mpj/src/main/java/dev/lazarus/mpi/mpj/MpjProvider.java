package dev.lazarus.mpi.mpj;

import dev.lazarus.mpi.MpiException;
import dev.lazarus.mpi.spi.CommProvider;
import mpi.MPI;
import mpi.MPIException;

/**
 * Starts MPJ Express for this rank. Ranks may be threads sharing one JVM (multicore device), so {@link #exit} does
 * not end the process; the launcher learns each rank's status from its status file.
 */
public final class MpjProvider implements CommProvider {

    @Override
    public String name() {
        return "mpj";
    }

    @Override
    public Started start(String[] args) {
        try {
            String[] rest = MPI.Init(args);
            return new Started(new MpjComm(MPI.COMM_WORLD), rest);
        } catch (MPIException e) {
            throw new MpiException("mpj: MPI.Init failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void finish() {
        try {
            MPI.Finalize();
        } catch (MPIException e) {
            throw new MpiException("mpj: MPI.Finalize failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void exit(int status) {
        // Returning ends this rank's thread; System.exit would end every rank sharing the JVM.
    }
}
