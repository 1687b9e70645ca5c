package dev.lazarus.npb.mg;

/**
 * Geometry of the multigrid levels on one rank. Level {@code k} (1..lt) has {@code nx[k] = 2^k} points per side. It
 * is <em>distributed</em> when every rank can own at least one z plane ({@code nx[k] >= ranks}): the rank then holds
 * the slab of {@code nzl[k] = nx[k] / ranks} planes. Coarser levels are <em>replicated</em>: every rank holds the whole
 * level and computes it redundantly, because a slab of less than one plane cannot be restricted further.
 *
 * <p>Every local array is {@code m1 x m1 x m3} with {@code m1 = nx + 2} and {@code m3 = nzl + 2}: one ghost layer on
 * each side, x fastest. Local plane {@code L} is plane {@code L + zOff[k]} of NPB's serial array of the level, whose
 * plane 0 and {@code nx + 1} are the periodic ghosts; this offset is what lets interp and rprj3 map planes between
 * levels exactly as the serial code does.
 */
final class MgGrid {
    /** Finest level. */
    final int lt;
    /** Coarsest level, as in NPB. */
    final int lb = 1;
    final int ranks;
    final int rank;
    /** Points per side of level k. */
    final int[] nx;
    /** Planes this rank computes at level k (all of them when replicated). */
    final int[] nzl;
    /** Serial plane index of local plane 0 at level k. */
    final int[] zOff;
    /** Whether level k is split over the ranks. */
    final boolean[] distributed;

    /**
     * @throws IllegalArgumentException when {@code ranks} is not a power of two from 1 to {@code nxTop}
     */
    MgGrid(int nxTop, int ranks, int rank) {
        checkRanks(nxTop, ranks);
        this.lt = Integer.numberOfTrailingZeros(nxTop);
        this.ranks = ranks;
        this.rank = rank;
        nx = new int[lt + 1];
        nzl = new int[lt + 1];
        zOff = new int[lt + 1];
        distributed = new boolean[lt + 1];
        for (int k = lb; k <= lt; k++) {
            nx[k] = 1 << k;
            distributed[k] = nx[k] >= ranks;
            nzl[k] = distributed[k] ? nx[k] / ranks : nx[k];
            zOff[k] = distributed[k] ? rank * nzl[k] : 0;
        }
    }

    /** Rejects rank counts the slab decomposition cannot serve, with a one-line message. */
    static void checkRanks(int nxTop, int ranks) {
        if (ranks < 1 || Integer.bitCount(ranks) != 1 || ranks > nxTop) {
            throw new IllegalArgumentException("npb.MG: " + ranks + " ranks not supported for a " + nxTop + "^3 grid;"
                    + " use a power of two from 1 to " + nxTop);
        }
    }

    /** Array extent in x and y at level k. */
    int m1(int k) {
        return nx[k] + 2;
    }

    /** Array extent in z at level k. */
    int m3(int k) {
        return nzl[k] + 2;
    }

    /** Number of doubles of a local array at level k. */
    int size(int k) {
        return m1(k) * m1(k) * m3(k);
    }

    /**
     * The finest level whose coarser neighbour is replicated: its residual is gathered before restriction. Zero when
     * every level is distributed.
     */
    int transitionLevel() {
        return distributed[lb] ? 0 : Integer.numberOfTrailingZeros(ranks);
    }
}
