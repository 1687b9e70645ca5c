package dev.lazarus.easycrash.trace;

/**
 * Sees every load and store of traced data objects, and every persistence operation, in program order. The crash
 * emulator implements it with a cache model that keeps the NVM image. Addresses are byte offsets in the rank's heap,
 * so one object's bytes are contiguous and objects never overlap.
 *
 * <p>{@link #store} is called <em>before</em> the memory is written, so an implementation can save the value NVM
 * still holds when a clean line turns dirty.
 */
public interface AccessTracer {

    /** Traces nothing (a tracer not yet bound to its model, for instance). Untraced heaps pass {@code null} instead. */
    AccessTracer NONE = new AccessTracer() {
        @Override
        public void load(long address, int bytes) {
        }

        @Override
        public void store(long address, int bytes) {
        }

        @Override
        public void persist(long address, long length) {
        }

        @Override
        public void regionEnd(int region, int iteration) {
        }

        @Override
        public void iterationBegin(int iteration) {
        }
    };

    /** A load of {@code bytes} (1 to 8) at heap offset {@code address}. */
    void load(long address, int bytes);

    /** A store of {@code bytes} (1 to 8) at heap offset {@code address}, about to happen. */
    void store(long address, int bytes);

    /** A persistence operation wrote back (CLWB) every cache line of {@code [address, address + length)}. */
    void persist(long address, long length);

    /** The code region {@code region} (0-based) of the main loop ended, in main-loop iteration {@code iteration}. */
    void regionEnd(int region, int iteration);

    /** Main-loop iteration {@code iteration} begins (after its bookmark was persisted). */
    void iterationBegin(int iteration);
}
