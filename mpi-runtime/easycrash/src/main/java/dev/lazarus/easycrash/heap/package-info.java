/**
 * The heap file behind a rank's data objects: its layout ({@link dev.lazarus.easycrash.heap.HeapLayout}), the mapped
 * file with its validated header, the crash-consistent bookmark and persistence marker, and the object directory
 * (a persisted Chronicle Map beside the heap file).
 */
package dev.lazarus.easycrash.heap;
