package dev.lazarus.daemon.l2.client;

import static dev.lazarus.daemon.l2.wire.WireLayout.*;

import dev.lazarus.daemon.l2.wire.Handshake;
import dev.lazarus.daemon.l2.wire.IdleWatchdog;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.daemon.l2.wire.Link;
import dev.lazarus.daemon.l2.wire.Printable;
import dev.lazarus.daemon.l2.wire.ProtocolException;
import dev.lazarus.daemon.l2.wire.RemoteErrorException;
import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.level.l2.PayloadTable;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * An authenticated connection to one member's L2 server. Small documents (payload tables, parity manifests) are
 * fetched whole; payload and parity bytes come as a stream of one requested range at a time, which the caller reads
 * in pieces ({@link #openStream}, {@link #readStream}). A range left unread is drained before the next request, since
 * responses arrive in order. Used by one thread; the stream calls allocate nothing.
 */
public final class PeerConnection implements AutoCloseable {
    private static final int DRAIN_BYTES = 64 << 10;

    private final Link link;
    private final byte[] job;
    private final IdleWatchdog watchdog;
    private final ByteBuffer request = ByteBuffer.allocateDirect(REQUEST_BYTES + MAX_JOB_BYTES);
    private final ByteBuffer response = ByteBuffer.allocateDirect(RESPONSE_BYTES);
    private ByteBuffer drain;
    private byte streamType;
    private long streamVersion = -1;
    private long streamNext;
    private long streamRemaining;

    private PeerConnection(Link link, byte[] job, IdleWatchdog watchdog) {
        this.link = link;
        this.job = job;
        this.watchdog = watchdog;
    }

    /**
     * Connects and authenticates both ways.
     *
     * @param name           how to name the peer in messages (its configured host:port)
     * @param connectMillis  connect timeout
     * @param watchdog       enforces the I/O timeout on every later call
     * @throws IOException one line with the peer and the reason: refused, timed out, wrong secret or job
     */
    public static PeerConnection open(InetSocketAddress address, String name, JobSecret secret, String job,
                                      int connectMillis, IdleWatchdog watchdog) throws IOException {
        SocketChannel channel = SocketChannel.open();
        Link link = new Link(channel, name);
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            try {
                channel.socket().connect(address, connectMillis);
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException("connect timed out: peer=" + name + " timeoutMillis="
                        + connectMillis);
            } catch (IOException e) {
                throw new IOException("cannot connect: peer=" + name + " reason=" + e.getMessage(), e);
            }
            watchdog.watch(link);
            Handshake.asClient(link, secret, job.getBytes(StandardCharsets.US_ASCII));
            return new PeerConnection(link, job.getBytes(StandardCharsets.US_ASCII), watchdog);
        } catch (IOException | RuntimeException e) {
            watchdog.forget(link);
            link.close();
            throw e;
        }
    }

    /** @return the peer's name */
    public String peer() {
        return link.peer();
    }

    /**
     * @return the peer's payload table of {@code version}
     * @throws RemoteErrorException if the peer has no checkpoint of it
     */
    public PayloadTable table(long version) throws IOException {
        byte[] body = document(TABLE, version);
        try {
            return PayloadTable.decode(body, "payload table from " + peer());
        } catch (CorruptCheckpointException e) {
            throw new ProtocolException(e.getMessage());
        }
    }

    /**
     * @return the bytes of the peer's parity manifest of {@code version}, not yet validated
     * @throws RemoteErrorException if the peer has none
     */
    public byte[] parityManifest(long version) throws IOException {
        return document(PARITY_MANIFEST, version);
    }

    private byte[] document(byte type, long version) throws IOException {
        drainStream();
        long length = exchange(type, version, 0, 0);
        if (length > MAX_DOCUMENT_BYTES) {
            throw new ProtocolException("response too large: peer=" + peer() + " request=" + requestName(type)
                    + " bodyLength=" + length + " max=" + MAX_DOCUMENT_BYTES);
        }
        ByteBuffer body = ByteBuffer.allocate((int) length);
        link.readFully(body);
        return body.array();
    }

    /**
     * Asks for bytes {@code [offset, offset + length)} of the payload or parity; they are then read with
     * {@link #readStream}. Any unread rest of the previous range is drained first.
     *
     * @param type {@link dev.lazarus.daemon.l2.wire.WireLayout#PAYLOAD_RANGE} or {@code PARITY_RANGE}
     * @throws RemoteErrorException if the peer refuses the range
     */
    public void openStream(byte type, long version, long offset, long length) throws IOException {
        drainStream();
        long bodyLength = exchange(type, version, offset, length);
        if (bodyLength != length) {
            throw new ProtocolException("range response length differs: peer=" + peer() + " asked=" + length
                    + " got=" + bodyLength);
        }
        streamType = type;
        streamVersion = version;
        streamNext = offset;
        streamRemaining = length;
    }

    /** @return whether the open stream is of this kind and version and its next byte is at {@code position} */
    public boolean streaming(byte type, long version, long position) {
        return streamRemaining > 0 && streamType == type && streamVersion == version && streamNext == position;
    }

    /** @return bytes of the open stream not yet read */
    public long streamRemaining() {
        return streamRemaining;
    }

    /**
     * Fills {@code dst} from its position to its limit with the next bytes of the open stream.
     *
     * @throws IllegalStateException if that is more than the stream has left
     */
    public void readStream(ByteBuffer dst) throws IOException {
        int n = dst.remaining();
        if (n > streamRemaining) {
            throw new IllegalStateException("read past the stream: peer=" + peer() + " asked=" + n
                    + " remaining=" + streamRemaining);
        }
        link.readFully(dst);
        streamNext += n;
        streamRemaining -= n;
    }

    private void drainStream() throws IOException {
        if (streamRemaining > 0 && drain == null) {
            drain = ByteBuffer.allocateDirect(DRAIN_BYTES);
        }
        while (streamRemaining > 0) {
            drain.clear().limit((int) Math.min(DRAIN_BYTES, streamRemaining));
            readStream(drain);
        }
    }

    /** Sends one request and reads the response header; returns the OK body's length. */
    private long exchange(byte type, long version, long offset, long length) throws IOException {
        request.clear();
        request.put(REQUEST_TYPE_OFFSET, type).put(1, (byte) 0)
                .putShort(REQUEST_JOB_LENGTH_OFFSET, (short) job.length).putLong(REQUEST_VERSION_OFFSET, version)
                .putLong(REQUEST_OFFSET_OFFSET, offset).putLong(REQUEST_LENGTH_OFFSET, length)
                .putInt(REQUEST_BYTES - 4, 0).put(REQUEST_BYTES, job).limit(REQUEST_BYTES + job.length);
        link.writeFully(request);
        response.clear();
        link.readFully(response);
        byte status = response.get(RESPONSE_STATUS_OFFSET);
        long bodyLength = response.getLong(RESPONSE_LENGTH_OFFSET);
        if (status == OK) {
            return bodyLength;
        }
        if (status != ERROR || bodyLength < 0 || bodyLength > MAX_ERROR_BYTES) {
            throw new ProtocolException("malformed response: peer=" + peer() + " status=" + status
                    + " bodyLength=" + bodyLength);
        }
        ByteBuffer message = ByteBuffer.allocate((int) bodyLength);
        link.readFully(message);
        throw new RemoteErrorException(Printable.line(message.array()));
    }

    @Override
    public void close() {
        watchdog.forget(link);
        link.close();
    }
}
