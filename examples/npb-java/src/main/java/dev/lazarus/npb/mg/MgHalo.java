package dev.lazarus.npb.mg;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.ElementType;

/**
 * Boundary exchange of the slab decomposition (NPB's comm3): x and y are periodic within every rank; the z ghost
 * planes of a distributed level come from the neighbouring ranks (periodic in rank order), those of a replicated
 * level from the rank's own copy. The planes are contiguous in the local arrays, so they are sent in place, straight
 * from the persistent heap objects' memory.
 */
final class MgHalo {
    /** Tag of a plane travelling to the next rank up (it becomes that rank's lower ghost). */
    private static final int TAG_UP = 301;
    /** Tag of a plane travelling to the next rank down (it becomes that rank's upper ghost). */
    private static final int TAG_DOWN = 302;

    private final Comm comm;
    private final MgGrid grid;

    MgHalo(Comm comm, MgGrid grid) {
        this.comm = comm;
        this.grid = grid;
    }

    /** Fills every ghost cell of the local array of level {@code k} at element {@code off} of {@code u}. */
    void comm3(DoubleArray u, int off, int k) {
        final int m1 = grid.m1(k);
        final int m3 = grid.m3(k);
        MgOps.comm3xy(u, off, m1, m1, m3);
        if (!grid.distributed[k] || grid.ranks == 1) {
            MgOps.comm3zLocal(u, off, m1, m1, m3);
            return;
        }
        // x/y ghosts first, so the exchanged planes carry their edges and corners as the serial comm3 would.
        final int plane = m1 * m1;
        final int up = (grid.rank + 1) % grid.ranks;
        final int down = (grid.rank + grid.ranks - 1) % grid.ranks;
        comm.sendrecv(u.segment(), off + (m3 - 2) * plane, plane, up, TAG_UP, u.segment(), off, plane, down, TAG_UP,
                ElementType.DOUBLE);
        comm.sendrecv(u.segment(), off + plane, plane, down, TAG_DOWN, u.segment(), off + (m3 - 1) * plane, plane, up,
                TAG_DOWN, ElementType.DOUBLE);
    }

    /**
     * Assembles the whole of distributed level {@code k} on every rank: {@code full} (extent {@code m1 x m1 x
     * (nx + 2)}, at element 0) receives all interior planes in rank order, then its periodic z ghosts. The local
     * array (at element {@code off} of {@code local}) must have valid x and y ghosts already (they travel with the
     * planes).
     */
    void gatherLevel(DoubleArray local, int off, int k, DoubleArray full) {
        final int m1 = grid.m1(k);
        final int plane = m1 * m1;
        comm.allgather(local.segment(), off + plane, grid.nzl[k] * plane, full.segment(), plane, ElementType.DOUBLE);
        MgOps.comm3zLocal(full, 0, m1, m1, grid.nx[k] + 2);
    }
}
