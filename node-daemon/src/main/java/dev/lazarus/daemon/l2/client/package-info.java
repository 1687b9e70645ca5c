/**
 * The L2 client's parts: authenticated connections to the members of a set, and the remote payload source that lets
 * the store's XOR codec read another node's payload or parity as a stream of windows.
 */
package dev.lazarus.daemon.l2.client;
