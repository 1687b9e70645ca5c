/**
 * Persistence operations: writing back the cache lines of a memory range to the NVM behind it, without copying data
 * (EasyCrash's CLWB). {@link dev.lazarus.easycrash.persist.PmemCacheLineWriter} calls PMDK's libpmem through the FFM
 * API: {@code pmem_flush} picks CLWB, CLFLUSHOPT or CLFLUSH for this CPU and issues it for every line, on any mapping,
 * so emulated NVM on /dev/shm pays the real cost. {@link dev.lazarus.easycrash.persist.SyncMappingCacheLineWriter}
 * serves MAP_SYNC (DAX) mappings, where the JDK's {@code MemorySegment.force} writes cache lines back itself.
 */
package dev.lazarus.easycrash.persist;
