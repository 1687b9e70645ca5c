/**
 * The node daemon embedded in the node's leader rank, like an embedded media driver: the node's L2 service runs on a
 * thread of that rank, and L2 encoding and rebuilds run on the rank's calling thread (its drain thread, or the
 * restart). It ends with the rank. Found through {@link dev.lazarus.daemon.NodeDaemonFactory} under the mode
 * {@value dev.lazarus.daemon.NodeDaemonConfig#EMBEDDED}.
 */
package dev.lazarus.daemon.embedded;
