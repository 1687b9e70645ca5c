package dev.lazarus.mpi.openmpi;

import dev.lazarus.mpi.MpiException;
import dev.lazarus.mpi.spi.CommProvider;
import mpi.MPI;
import mpi.MPIException;

/** Starts Open MPI in this process. One rank per process, so {@link #exit} ends the process. */
public final class OpenMpiProvider implements CommProvider {

    @Override
    public String name() {
        return "openmpi";
    }

    @Override
    public Started start(String[] args) {
        try {
            String[] rest = MPI.Init(args);
            return new Started(new OpenMpiComm(MPI.COMM_WORLD), rest);
        } catch (MPIException e) {
            throw new MpiException("openmpi: MPI_Init failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void finish() {
        try {
            MPI.Finalize();
        } catch (MPIException e) {
            throw new MpiException("openmpi: MPI_Finalize failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void exit(int status) {
        System.exit(status);
    }
}
