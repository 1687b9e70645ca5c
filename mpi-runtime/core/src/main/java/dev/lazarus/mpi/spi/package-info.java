/**
 * What an MPI backend implements: a {@link dev.lazarus.mpi.spi.CommProvider} found through {@link
 * java.util.ServiceLoader}, and a {@link dev.lazarus.mpi.spi.AbstractComm} subclass. The base class validates every
 * argument and runs the receive hooks, so a backend only moves bytes.
 */
package dev.lazarus.mpi.spi;
