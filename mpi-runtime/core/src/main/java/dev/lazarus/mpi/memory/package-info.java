/**
 * Plain loads and stores at absolute addresses of memory-mapped files ({@link dev.lazarus.mpi.memory.RawMemory}): the
 * persistent heap's element accessors and the fields a rank writes every iteration, where a {@code MemorySegment}
 * access costs more than the work it records.
 */
package dev.lazarus.mpi.memory;
