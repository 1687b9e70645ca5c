/**
 * The node daemon's client API, the one door through which a rank reaches its node's daemon
 * ({@link dev.lazarus.daemon.NodeDaemon}): hand over a finished L1 version for L2, ask for a rebuild of the node's
 * files from its set, ask what the node holds. {@link dev.lazarus.daemon.NodeDaemons#open} finds the implementation
 * the configuration names; today that is the daemon embedded in the node's leader rank
 * ({@code dev.lazarus.daemon.embedded}). The transport and the work behind it are {@code dev.lazarus.daemon.l2}.
 * The ranks import this package only. Watching ranks (exit, hang) and a daemon process of its own are not written
 * yet.
 */
package dev.lazarus.daemon;
