/**
 * Support for the integration tests of every module: simulated cluster nodes in network namespaces
 * ({@link dev.lazarus.testing.NetnsHosts}), the real {@code ./lazarus} run as a child process, to completion
 * ({@link dev.lazarus.testing.LazarusProcess}) or watched while it runs and killed
 * ({@link dev.lazarus.testing.RunningJob}), and what the tests look at in the checkpoint levels
 * ({@link dev.lazarus.testing.JobFiles}). Test scope only.
 */
package dev.lazarus.testing;
