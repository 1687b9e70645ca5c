/**
 * Benchmark helpers run by {@code scripts/bench/xor-loopback}: filling nodes with real rank checkpoints, and the
 * plain-TCP copy that L2's encode and rebuild throughput is compared against.
 */
package dev.lazarus.daemon.l2.bench;
