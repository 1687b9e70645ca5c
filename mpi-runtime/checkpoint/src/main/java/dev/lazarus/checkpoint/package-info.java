/**
 * The rank's checkpoint client: protect memory, take coordinated incremental checkpoints to L1 with asynchronous
 * drain to the slower levels, and restart from the newest version every rank can restore.
 */
package dev.lazarus.checkpoint;
