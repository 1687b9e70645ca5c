/**
 * The rank-side API: {@link dev.lazarus.mpi.Comm}, our small MPI interface with receive hooks, and
 * {@link dev.lazarus.mpi.MpiApplication}, what Lazarus launches. Backends live in their own modules and plug in
 * through {@link dev.lazarus.mpi.spi.CommProvider}; {@code launch} holds the rank entry point. This module never
 * decides recovery policy.
 */
package dev.lazarus.mpi;
