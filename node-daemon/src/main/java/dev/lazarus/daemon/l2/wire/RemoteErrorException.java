package dev.lazarus.daemon.l2.wire;

import java.io.IOException;

/**
 * The peer answered a request with an error line (no checkpoint of that version, a range outside the file). The
 * connection stays usable.
 */
public class RemoteErrorException extends IOException {
    private static final long serialVersionUID = 1L;

    public RemoteErrorException(String message) {
        super(message);
    }
}
