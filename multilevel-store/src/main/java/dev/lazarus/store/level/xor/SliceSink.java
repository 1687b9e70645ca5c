package dev.lazarus.store.level.xor;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where {@link XorCodec} puts what it computed: slices with their positions in the payload or parity chunk. */
@FunctionalInterface
public interface SliceSink {

    /**
     * Takes all of {@code slice}, from its position to its limit. The buffer is the codec's and is reused for the
     * next slice as soon as this returns.
     *
     * @param position where the slice's first byte belongs in the rebuilt payload or parity chunk
     * @throws IOException if storing it fails
     */
    void write(long position, ByteBuffer slice) throws IOException;
}
