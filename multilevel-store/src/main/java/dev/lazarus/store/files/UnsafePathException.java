package dev.lazarus.store.files;

import java.io.IOException;

/**
 * A path the runtime must not write through: a symbolic link where a job's directory, a version's directory or one of
 * their files belongs, something other than a directory where a directory belongs, or a directory owned by another
 * user. The runtime runs as root over shared directories such as /dev/shm, so following such a path would let
 * another user aim its writes at any file. The message is one line, e.g.
 * {@code refusing /dev/shm/lazarus/ckpt/job: it is a symbolic link}.
 */
public final class UnsafePathException extends IOException {
    private static final long serialVersionUID = 1L;

    public UnsafePathException(String message) {
        super(message);
    }
}
