/**
 * Test support for every module's tests: {@link dev.lazarus.mpi.testing.ThreadComm} runs ranks as threads of one JVM
 * over the same {@code Comm} API the MPI backends implement, so collective code (checkpoint agreement, restart,
 * kernels) is tested on several ranks without launching MPI.
 */
package dev.lazarus.mpi.testing;
