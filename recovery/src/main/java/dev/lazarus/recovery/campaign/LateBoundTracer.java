package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.trace.AccessTracer;

/**
 * A tracer whose target is set after the heap exists: the cache model needs the mapped heap, which the runtime
 * creates after it was handed the tracer. Until bound it traces nothing.
 */
final class LateBoundTracer implements AccessTracer {
    private AccessTracer target = AccessTracer.NONE;

    void bind(AccessTracer tracer) {
        this.target = tracer;
    }

    @Override
    public void load(long address, int bytes) {
        target.load(address, bytes);
    }

    @Override
    public void store(long address, int bytes) {
        target.store(address, bytes);
    }

    @Override
    public void persist(long address, long length) {
        target.persist(address, length);
    }

    @Override
    public void regionEnd(int region, int iteration) {
        target.regionEnd(region, iteration);
    }

    @Override
    public void iterationBegin(int iteration) {
        target.iterationBegin(iteration);
    }
}
