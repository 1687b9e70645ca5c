/**
 * The seam between data objects and the crash emulator. Production runs never trace: {@link
 * dev.lazarus.easycrash.trace.Tracing#ENABLED} is a constant the JIT folds, so the accessors compile to plain memory
 * accesses. Campaign JVMs start with {@code -Dlazarus.easycrash.trace=true} and give each heap an {@link
 * dev.lazarus.easycrash.trace.AccessTracer} (the cache model).
 */
package dev.lazarus.easycrash.trace;
