package dev.lazarus.daemon.l2.wire;

import java.io.IOException;

/**
 * The other end broke the L2 protocol or failed authentication: a bad magic, an oversized or malformed message, a
 * wrong job or secret. The connection is closed; the message is one line with key=value context.
 */
public class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }
}
