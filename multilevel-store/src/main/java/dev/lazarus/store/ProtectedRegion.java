package dev.lazarus.store;

import java.lang.foreign.MemorySegment;

/**
 * A variable and the live memory it is checkpointed from and restored into (VeloC's protect). Native segments mapped
 * from files on /dev/shm or DAX get page-level write tracking; heap segments and other memory are hashed whole.
 *
 * @param variable what the checkpoint records about the memory
 * @param memory   exactly {@code variable.byteSize()} bytes
 */
public record ProtectedRegion(Variable variable, MemorySegment memory) {

    public ProtectedRegion {
        if (variable == null || memory == null) {
            throw new IllegalArgumentException("protected region needs a variable and its memory");
        }
        if (memory.byteSize() != variable.byteSize()) {
            throw new IllegalArgumentException("variable " + variable.name() + ": memory bytes=" + memory.byteSize()
                    + " but shape and type need " + variable.byteSize());
        }
        if (memory.isReadOnly()) {
            throw new IllegalArgumentException("variable " + variable.name() + ": memory is read-only");
        }
    }

    /** A one-dimensional region over a whole segment. */
    public static ProtectedRegion of(String name, ElementType type, MemorySegment memory) {
        if (memory.byteSize() % type.size() != 0) {
            throw new IllegalArgumentException("variable " + name + ": bytes=" + memory.byteSize()
                    + " not a multiple of " + type + " size " + type.size());
        }
        return new ProtectedRegion(Variable.vector(name, type, memory.byteSize() / type.size()), memory);
    }
}
