package dev.lazarus.daemon.l2.wire;

import dev.lazarus.store.level.l2.FileRangeSink;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

/**
 * One blocking TCP connection with the bookkeeping the {@link IdleWatchdog} needs: blocking channels have no read
 * timeout, so every blocking call marks the link busy and records progress, and the watchdog closes a link that stays
 * busy without progress for longer than the I/O timeout, which makes the blocked call fail.
 *
 * <p>Used by one thread at a time (the watchdog only reads the two volatile fields and may close). The calls allocate
 * nothing.
 */
public final class Link implements AutoCloseable, FileRangeSink {
    /** Largest piece handed to sendfile at once, so that progress is seen at least every this many bytes. */
    private static final long TRANSFER_PIECE = 1 << 20;

    private final SocketChannel channel;
    private final String peer;
    private volatile long lastProgressNanos = System.nanoTime();
    private volatile boolean busy;

    /**
     * @param channel a connected channel in blocking mode
     * @param peer    how to name the other end in messages
     */
    public Link(SocketChannel channel, String peer) {
        this.channel = channel;
        this.peer = peer;
    }

    /** @return the other end, for messages */
    public String peer() {
        return peer;
    }

    /**
     * Fills {@code buffer} from its position to its limit.
     *
     * @throws EOFException if the peer closes first, with the peer and the bytes missing
     */
    public void readFully(ByteBuffer buffer) throws IOException {
        begin();
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    throw new EOFException("connection closed by peer: peer=" + peer + " missingBytes="
                            + buffer.remaining());
                }
                lastProgressNanos = System.nanoTime();
            }
        } finally {
            busy = false;
        }
    }

    /**
     * Reads into {@code buffer} until it is full or the peer closes the connection.
     *
     * @return false if the peer closed (or reset) the connection before the first byte (a clean end between messages)
     * @throws EOFException if the peer closes after the first byte
     */
    public boolean readFullyOrEnd(ByteBuffer buffer) throws IOException {
        begin();
        try {
            int start = buffer.position();
            while (buffer.hasRemaining()) {
                int read;
                try {
                    read = channel.read(buffer);
                } catch (SocketException e) {
                    // A peer that closed with bytes of ours unread resets the connection instead of ending it: between
                    // messages that is a hang-up like any other (a rebuilder done with its ranges, a killed rank).
                    if (buffer.position() == start && String.valueOf(e.getMessage()).contains("Connection reset")) {
                        return false;
                    }
                    throw e;
                }
                if (read < 0) {
                    if (buffer.position() == start) {
                        return false;
                    }
                    throw new EOFException("connection closed by peer inside a message: peer=" + peer
                            + " missingBytes=" + buffer.remaining());
                }
                lastProgressNanos = System.nanoTime();
            }
            return true;
        } finally {
            busy = false;
        }
    }

    /** Writes {@code buffer} from its position to its limit. */
    public void writeFully(ByteBuffer buffer) throws IOException {
        begin();
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
                lastProgressNanos = System.nanoTime();
            }
        } finally {
            busy = false;
        }
    }

    /**
     * Sends {@code count} bytes of {@code file} from {@code position}, with sendfile where the platform has it: the
     * bytes go from the page cache to the socket without a copy through this process.
     *
     * @throws EOFException if the file ends first
     */
    @Override
    public void transferFrom(FileChannel file, long position, long count) throws IOException {
        begin();
        try {
            long done = 0;
            while (done < count) {
                long n = file.transferTo(position + done, Math.min(TRANSFER_PIECE, count - done), channel);
                if (n <= 0 && position + done >= file.size()) {
                    throw new EOFException("file ends inside the range sent: peer=" + peer + " position="
                            + (position + done) + " fileSize=" + file.size());
                }
                done += n;
                lastProgressNanos = System.nanoTime();
            }
        } finally {
            busy = false;
        }
    }

    private void begin() {
        lastProgressNanos = System.nanoTime();
        busy = true;
    }

    /** @return whether a blocking call is in progress */
    boolean busy() {
        return busy;
    }

    /** @return {@link System#nanoTime()} of the last progress or the start of the current call */
    long lastProgressNanos() {
        return lastProgressNanos;
    }

    /** Closes the connection; a call blocked on it fails. Closing twice is harmless. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing to do: the socket is gone either way.
        }
    }

    @Override
    public String toString() {
        return "Link[peer=" + peer + "]";
    }
}
