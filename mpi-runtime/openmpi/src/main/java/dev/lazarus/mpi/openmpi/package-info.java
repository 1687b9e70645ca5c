/**
 * The Open MPI backend: {@link dev.lazarus.mpi.Comm} over Open MPI's Java bindings ({@code libmpi_java.so} plus the
 * {@code mpi.jar} that {@code scripts/setup} builds from Debian's source package). Native memory segments travel
 * zero-copy as direct buffers; non-blocking operations on Java arrays are staged through direct buffers because the
 * bindings accept only those.
 */
package dev.lazarus.mpi.openmpi;
