package dev.lazarus.daemon.l2.server;

import static dev.lazarus.daemon.l2.wire.WireLayout.*;

import dev.lazarus.daemon.l2.wire.Handshake;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.daemon.l2.wire.Link;
import dev.lazarus.daemon.l2.wire.Printable;
import dev.lazarus.daemon.l2.wire.ProtocolException;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.level.CheckpointDirectory;
import dev.lazarus.store.level.l2.NodePayload;
import dev.lazarus.store.level.l2.ParityFiles;
import dev.lazarus.store.level.l2.ParityManifestLayout;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * Serves one authenticated connection: authenticates the peer, then answers its requests in order until it hangs up.
 * Requests the node cannot satisfy (no such version, a range outside the file) get an error line and the connection
 * stays up; a broken protocol (bad magic, wrong job or secret, an oversized or malformed message) closes it, with one
 * line logged and nothing sent that the peer did not earn. Range answers go out with sendfile.
 */
public final class ConnectionHandler implements Runnable {
    private final Link link;
    private final CheckpointDirectory directory;
    private final JobSecret secret;
    private final byte[] job;
    private final PayloadTableCache tables;
    private final Consumer<String> log;
    private final Runnable onEnd;
    private final ByteBuffer request = ByteBuffer.allocateDirect(REQUEST_BYTES + MAX_JOB_BYTES);
    private final ByteBuffer response = ByteBuffer.allocateDirect(RESPONSE_BYTES);
    /** The payload and parity of the version last asked for, kept open across range requests. */
    private NodePayload payload;
    private long payloadVersion = -1;
    private FileChannel parity;
    private long parityVersion = -1;

    /**
     * @param onEnd called once when the connection is over, however it ended
     */
    public ConnectionHandler(Link link, CheckpointDirectory directory, JobSecret secret, byte[] job,
                             PayloadTableCache tables, Consumer<String> log, Runnable onEnd) {
        this.link = link;
        this.directory = directory;
        this.secret = secret;
        this.job = job;
        this.tables = tables;
        this.log = log;
        this.onEnd = onEnd;
    }

    @Override
    public void run() {
        try {
            Handshake.asServer(link, secret, job);
            while (serveOne()) {
                // one request per iteration, until the peer hangs up
            }
        } catch (ProtocolException e) {
            log.accept("l2: refused peer=" + link.peer() + " reason=" + e.getMessage());
        } catch (ClosedChannelException e) {
            // Closed under us: by the watchdog (which logged it) or by the server shutting down.
        } catch (EOFException e) {
            log.accept("l2: connection dropped: peer=" + link.peer() + " reason=" + e.getMessage());
        } catch (IOException | RuntimeException e) {
            log.accept("l2: connection failed: peer=" + link.peer() + " reason=" + e.getClass().getSimpleName()
                    + ": " + e.getMessage());
        } finally {
            closeFiles();
            link.close();
            onEnd.run();
        }
    }

    /** @return false when the peer hung up cleanly between requests */
    private boolean serveOne() throws IOException {
        request.clear().limit(REQUEST_BYTES);
        if (!link.readFullyOrEnd(request)) {
            return false;
        }
        byte type = request.get(REQUEST_TYPE_OFFSET);
        int jobLength = Short.toUnsignedInt(request.getShort(REQUEST_JOB_LENGTH_OFFSET));
        if (jobLength < 1 || jobLength > MAX_JOB_BYTES) {
            throw new ProtocolException("request job length=" + jobLength + " outside 1.." + MAX_JOB_BYTES);
        }
        request.limit(REQUEST_BYTES + jobLength);
        link.readFully(request);
        if (!sameJob(jobLength)) {
            byte[] other = new byte[jobLength];
            request.get(REQUEST_BYTES, other);
            throw new ProtocolException("request for another job: job=" + Handshake.ascii(other));
        }
        long version = request.getLong(REQUEST_VERSION_OFFSET);
        long offset = request.getLong(REQUEST_OFFSET_OFFSET);
        long length = request.getLong(REQUEST_LENGTH_OFFSET);
        if (version < 0 || version > 999_999_999_999L) {
            throw new ProtocolException("request version=" + version + " out of range");
        }
        switch (type) {
            case TABLE, PARITY_MANIFEST -> document(type, version);
            case PAYLOAD_RANGE, PARITY_RANGE -> range(type, version, offset, length);
            default -> throw new ProtocolException("unknown request type=" + type);
        }
        return true;
    }

    /** Compares the request's job id with ours without allocating. */
    private boolean sameJob(int jobLength) {
        if (jobLength != job.length) {
            return false;
        }
        for (int i = 0; i < jobLength; i++) {
            if (request.get(REQUEST_BYTES + i) != job[i]) {
                return false;
            }
        }
        return true;
    }

    private void document(byte type, long version) throws IOException {
        byte[] body;
        try {
            body = type == TABLE ? tables.table(version) : parityManifest(version);
        } catch (NoSuchFileException e) {
            error(e.getFile());
            return;
        }
        header(OK, body.length);
        link.writeFully(ByteBuffer.wrap(body));
    }

    private byte[] parityManifest(long version) throws IOException {
        Path file = ParityFiles.manifest(directory, version);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException("no parity manifest of version=" + version + " on this node");
        }
        return SecureFiles.readBounded(file, ParityManifestLayout.MAX_MANIFEST_BYTES);
    }

    private void range(byte type, long version, long offset, long length) throws IOException {
        if (length < 0 || length > MAX_RANGE_BYTES || offset < 0) {
            throw new ProtocolException(requestName(type) + " offset=" + offset + " length=" + length
                    + " outside 0.." + MAX_RANGE_BYTES);
        }
        long size;
        try {
            size = type == PAYLOAD_RANGE ? payload(version).size() : parity(version).size();
        } catch (NoSuchFileException e) {
            error(e.getFile());
            return;
        }
        if (offset > size - length) {
            error(requestName(type) + " outside the file: version=" + version + " offset=" + offset + " length="
                    + length + " size=" + size);
            return;
        }
        header(OK, length);
        if (type == PAYLOAD_RANGE) {
            payload.transferTo(offset, length, link);
        } else {
            link.transferFrom(parity, offset, length);
        }
    }

    private NodePayload payload(long version) throws IOException {
        if (payloadVersion != version) {
            closePayload();
            payload = NodePayload.open(directory, version);
            payloadVersion = version;
        }
        return payload;
    }

    private FileChannel parity(long version) throws IOException {
        if (parityVersion != version) {
            closeParity();
            Path file = ParityFiles.parity(directory, version);
            try {
                parity = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                throw new NoSuchFileException("no parity of version=" + version + " on this node");
            }
            parityVersion = version;
        }
        return parity;
    }

    private void header(byte status, long bodyLength) throws IOException {
        response.clear();
        response.put(RESPONSE_STATUS_OFFSET, status).putInt(4, 0).putLong(RESPONSE_LENGTH_OFFSET, bodyLength);
        link.writeFully(response);
    }

    private void error(String message) throws IOException {
        byte[] body = Printable.errorBytes(message, MAX_ERROR_BYTES);
        header(ERROR, body.length);
        link.writeFully(ByteBuffer.wrap(body));
    }

    private void closeFiles() {
        closePayload();
        closeParity();
    }

    private void closePayload() {
        if (payload != null) {
            payload.close();
            payload = null;
            payloadVersion = -1;
        }
    }

    private void closeParity() {
        if (parity != null) {
            try {
                parity.close();
            } catch (IOException e) {
                // A read-only channel has nothing to lose on close.
            }
            parity = null;
            parityVersion = -1;
        }
    }
}
