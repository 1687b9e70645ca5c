/**
 * The L2 server's parts: the acceptor agent, the per-connection request handler, and the cache of payload tables.
 */
package dev.lazarus.daemon.l2.server;
