/**
 * The NAS Parallel Benchmarks kernels CG, MG, FT, IS and EP, written for Lazarus in Java on
 * {@link dev.lazarus.mpi.Comm}, with the official NPB 3.4 problem classes and verification rules. Each kernel is a
 * main loop of first-level code regions over named data objects, the structure EasyCrash selects from.
 */
package dev.lazarus.npb;
