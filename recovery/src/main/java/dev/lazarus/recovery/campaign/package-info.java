/**
 * Crash-test campaigns, the NVCT analog (EasyCrash paper §3, §4.1): one traced run through the cache model yields an
 * NVM image at every crash point, and each image is restarted, run to completion and verified, in parallel.
 */
package dev.lazarus.recovery.campaign;
