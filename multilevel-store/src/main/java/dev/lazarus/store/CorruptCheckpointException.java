package dev.lazarus.store;

import java.io.IOException;

/**
 * A checkpoint file is unusable: malformed, truncated, failing its checksum, oversized, or written by another job.
 * The message is one line with key=value context and says which file and why; restart skips the version and logs it.
 */
public class CorruptCheckpointException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptCheckpointException(String message) {
        super(message);
    }
}
