/**
 * EasyCrash on the rank side: a persistent heap of named data objects in memory-mapped NVM, code-region and
 * main-loop markers, and persistence operations that write cache lines back without copying data. After a crash the
 * job re-attaches the heap, resumes at the bookmarked iteration and lets acceptance verification decide.
 */
package dev.lazarus.easycrash;
