/**
 * NPB MG: V-cycle multigrid on a periodic 3D grid, slab-decomposed along z over the ranks of a
 * {@link dev.lazarus.mpi.Comm}. The entry point is {@link dev.lazarus.npb.mg.MgKernel}.
 */
package dev.lazarus.npb.mg;
