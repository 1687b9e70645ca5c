/**
 * How a rank starts: {@link dev.lazarus.mpi.launch.RankMain} is the main class the launcher hands to {@code mpirun}
 * or MPJ Express. It initializes the backend, finds the application by name, runs it, agrees on one exit status
 * across ranks and records it for the launcher.
 */
package dev.lazarus.mpi.launch;
