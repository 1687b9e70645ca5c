/**
 * The L2 wire protocol ({@link dev.lazarus.daemon.l2.wire.WireLayout}): the HMAC-SHA256 challenge-response handshake
 * with the job's secret, blocking links with the watchdog agent that gives them their I/O timeout, and the
 * exceptions that close a connection.
 */
package dev.lazarus.daemon.l2.wire;
