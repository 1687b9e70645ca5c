package dev.lazarus.daemon;

import java.io.IOException;

/**
 * The node daemon process did not answer a call: its connection broke (the daemon died, or was stopped). Unlike a
 * refusal, where the daemon tried and said why, nothing was done, and the caller may do the work itself.
 */
public final class NodeDaemonGoneException extends IOException {
    public NodeDaemonGoneException(String message, Throwable cause) {
        super(message, cause);
    }
}
