/**
 * An in-process communicator for one rank, used where launching MPI would dominate the work: the crash emulator's
 * campaigns run thousands of short single-rank restarts of an application (the paper's NVCT runs single-threaded
 * too). Production jobs always run on a real MPI backend.
 */
package dev.lazarus.mpi.local;
