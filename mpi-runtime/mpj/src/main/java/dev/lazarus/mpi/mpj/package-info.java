/**
 * The MPJ Express backend: {@link dev.lazarus.mpi.Comm} over the mpiJava 1.2 API of MPJ Express 0.44 (Debian's
 * {@code libmpj-java}). Java arrays travel as they are; memory segments are staged through Java arrays because the
 * API accepts nothing else, and a rank keeps its blocking calls' staging arrays between calls. Under the multicore
 * device all ranks are threads of one JVM, each with its own class loader, so nothing here may rely on process-wide
 * state.
 */
package dev.lazarus.mpi.mpj;
