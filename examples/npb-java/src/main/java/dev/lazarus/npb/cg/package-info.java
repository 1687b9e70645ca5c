/**
 * NPB 3.4 CG, the conjugate gradient kernel: inverse power iteration on a random sparse symmetric matrix, with a
 * row-block distribution over {@link dev.lazarus.mpi.Comm}. Entry point {@link dev.lazarus.npb.cg.CgKernel}.
 */
package dev.lazarus.npb.cg;
