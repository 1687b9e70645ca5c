package dev.lazarus.store.level.l2;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Where {@link NodePayload#transferTo} sends a range of a payload, file part by file part: the store reads the files,
 * the caller (the node daemon's network link) owns the transport, so the format knows nothing of sockets.
 */
@FunctionalInterface
public interface FileRangeSink {
    /**
     * Takes {@code count} bytes of {@code file} from {@code position}.
     *
     * @throws java.io.EOFException if the file ends first
     */
    void transferFrom(FileChannel file, long position, long count) throws IOException;
}
