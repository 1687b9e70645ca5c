/**
 * The crash emulator (the Java analog of EasyCrash's NVCT): a cache model that sees every traced load, store and
 * persistence operation of one rank's heap and keeps the NVM image as it would be after a crash at any moment.
 * One traced run of a deterministic application yields a snapshot per random crash point (NVM image, main-loop
 * iteration and code region, per-object inconsistent rate); the campaign runner restarts from each snapshot.
 *
 * <p>Entry points: {@link dev.lazarus.recovery.crash.CacheConfig}, {@link dev.lazarus.recovery.crash.CacheModel},
 * {@link dev.lazarus.recovery.crash.CrashPoints}, {@link dev.lazarus.recovery.crash.SnapshottingTracer} and
 * {@link dev.lazarus.recovery.crash.CountingTracer}. Nothing here is thread-safe: a model belongs to one rank's
 * application thread.
 */
package dev.lazarus.recovery.crash;
