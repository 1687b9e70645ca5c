/**
 * The per-node daemon: owns the node's RAM disk and NVM directory, runs the asynchronous L2/L3 work (the papers'
 * "checkpointing core"), watches local ranks for exit and hangs, and serves partner and XOR traffic. It never runs
 * application code.
 */
package dev.lazarus.daemon;
