/**
 * JMH benchmarks of the EasyCrash runtime. Every benchmark pairs the persistent-heap version of a loop with a
 * baseline measured in the same run (plain {@code double[]}, the raw {@code MemorySegment}, or the same writes without
 * a persistence operation), so that ratios stay meaningful on a busy machine. Run them with {@code scripts/bench/jmh}.
 */
package dev.lazarus.bench;
