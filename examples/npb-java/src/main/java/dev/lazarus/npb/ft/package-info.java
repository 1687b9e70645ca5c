/**
 * NPB FT, the 3D FFT PDE solver, on {@link dev.lazarus.mpi.Comm}: a slab-decomposed distributed 3D FFT
 * ({@link dev.lazarus.npb.ft.SlabFft}) built on a batched radix-2 Stockham FFT
 * ({@link dev.lazarus.npb.ft.StockhamFft}), and the kernel {@link dev.lazarus.npb.ft.FtKernel}.
 */
package dev.lazarus.npb.ft;
