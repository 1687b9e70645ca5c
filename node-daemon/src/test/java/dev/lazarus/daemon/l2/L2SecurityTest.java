package dev.lazarus.daemon.l2;

import static dev.lazarus.daemon.l2.wire.WireLayout.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lazarus.daemon.l2.client.PeerConnection;
import dev.lazarus.daemon.l2.wire.Handshake;
import dev.lazarus.daemon.l2.wire.IdleWatchdog;
import dev.lazarus.daemon.l2.wire.JobSecret;
import dev.lazarus.daemon.l2.wire.Link;
import dev.lazarus.daemon.l2.wire.ProtocolException;
import dev.lazarus.daemon.l2.wire.RemoteErrorException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One node's server against wrong secrets, wrong jobs, garbage, oversized and silent peers: each is refused with one
 * logged line and a closed connection, and the client side reports why.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class L2SecurityTest {
    private static final byte[] JOB = L2Fixture.JOB.getBytes(StandardCharsets.US_ASCII);

    private L2Fixture node;
    private InetSocketAddress address;
    private IdleWatchdog watchdog;

    @BeforeEach
    void setUp() throws IOException {
        node = new L2Fixture(1);
        node.writeCheckpoints(1);
        node.startServers();
        address = node.servers.getFirst().address();
        watchdog = IdleWatchdog.start(10_000, node.log::add);
    }

    @AfterEach
    void tearDown() throws IOException {
        watchdog.close();
        node.close();
    }

    private PeerConnection connect(Path secret, String job) throws IOException {
        return PeerConnection.open(address, node.members.getFirst(), JobSecret.load(secret), job, 2000, watchdog);
    }

    /** Waits for a server log line containing {@code text}. */
    private void assertLogged(String text) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            synchronized (node.log) {
                if (node.log.stream().anyMatch(line -> line.contains(text))) {
                    return;
                }
            }
            Thread.sleep(25);
        }
        fail("no log line contains '" + text + "': " + node.log);
    }

    /** The server hung up: end of stream, or a reset when it closed with our bytes still unread. */
    private static void assertClosed(Socket socket) throws IOException {
        socket.setSoTimeout(5000);
        InputStream in = socket.getInputStream();
        try {
            assertEquals(-1, in.read(), "server closes the connection");
        } catch (SocketException e) {
            assertEquals("Connection reset", e.getMessage());
        }
    }

    private static void assertClosed(SocketChannel channel) throws IOException {
        try {
            assertEquals(-1, channel.read(ByteBuffer.allocate(RESPONSE_BYTES)), "no answer, connection closed");
        } catch (SocketException e) {
            assertEquals("Connection reset", e.getMessage());
        }
    }

    @Test
    void theRightSecretAndJobGetServed() throws IOException {
        try (PeerConnection peer = connect(node.secret, L2Fixture.JOB)) {
            assertEquals(java.util.List.of(0, 1), peer.table(1).ranks());
            RemoteErrorException missing = assertThrows(RemoteErrorException.class, () -> peer.table(99));
            assertEquals("no checkpoint of version=99 on this node", missing.getMessage());
            long size = peer.table(1).payloadSize();
            RemoteErrorException outside = assertThrows(RemoteErrorException.class,
                    () -> peer.openStream(PAYLOAD_RANGE, 1, size - 4, 10));
            assertEquals("PAYLOAD_RANGE outside the file: version=1 offset=" + (size - 4) + " length=10 size=" + size,
                    outside.getMessage());
            assertEquals(2, peer.table(1).ranks().size(), "the connection survives an error answer");
        }
    }

    @Test
    void aClientWithTheWrongSecretRejectsTheServer() throws Exception {
        Path wrong = L2Fixture.writeSecret(node.base.resolve("wrong-secret"), 99);
        ProtocolException e = assertThrows(ProtocolException.class, () -> connect(wrong, L2Fixture.JOB));
        assertEquals("peer failed authentication (wrong secret?): peer=" + node.members.getFirst() + " job=job-l2",
                e.getMessage());
    }

    @Test
    void aForgedClientProofIsRefused() throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.getOutputStream().write(hello(JOB.length).array());
            byte[] challenge = socket.getInputStream().readNBytes(CHALLENGE_BYTES);
            assertEquals(AUTH_OK, challenge[CHALLENGE_STATUS_OFFSET]);
            socket.getOutputStream().write(new byte[PROOF_BYTES]);
            assertEquals(AUTH_DENIED, socket.getInputStream().readNBytes(VERDICT_BYTES)[0]);
            assertClosed(socket);
        }
        assertLogged("reason=client proof does not match (wrong secret)");
    }

    private static ByteBuffer hello(int jobLength) {
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES + JOB.length);
        hello.putInt(MAGIC).putShort(PROTOCOL).putShort((short) jobLength).put(new byte[NONCE_BYTES]).put(JOB);
        return hello;
    }

    @Test
    void aClientOfAnotherJobIsRefused() throws Exception {
        ProtocolException e = assertThrows(ProtocolException.class, () -> connect(node.secret, "other-job"));
        assertEquals("peer serves another job: peer=" + node.members.getFirst() + " job=other-job", e.getMessage());
        assertLogged("reason=hello for another job: job=other-job");
    }

    @Test
    void anOversizedHelloIsRejectedWithoutAReply() throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.getOutputStream().write(hello(60_000).array());
            assertClosed(socket);
        }
        assertLogged("reason=hello job length=60000 outside 1..64");
    }

    @Test
    void somethingElseThanL2IsRejected() throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: lazarus\r\nAccept: */*\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertClosed(socket);
        }
        assertLogged("reason=not an L2 client (bad magic)");
        assertTrue(node.log.stream().noneMatch(line -> line.contains("\n") || line.contains("\tat ")),
                "one line each, no stack trace: " + node.log);
    }

    @Test
    void oversizedOrMalformedRequestsCloseTheConnection() throws Exception {
        assertRequestRefused(request(TABLE, 65_535, 1, 0, 0), "reason=request job length=65535 outside 1..64");
        assertRequestRefused(request(PAYLOAD_RANGE, JOB.length, 1, 0, 1L << 40),
                "reason=PAYLOAD_RANGE offset=0 length=1099511627776 outside 0..1073741824");
        assertRequestRefused(request((byte) 99, JOB.length, 1, 0, 0), "reason=unknown request type=99");
        ByteBuffer otherJob = request(TABLE, 4, 1, 0, 0);
        otherJob.put(REQUEST_BYTES, "evil".getBytes(StandardCharsets.US_ASCII)).limit(REQUEST_BYTES + 4);
        assertRequestRefused(otherJob, "reason=request for another job: job=evil");
    }

    private static ByteBuffer request(byte type, int jobLength, long version, long offset, long length) {
        ByteBuffer request = ByteBuffer.allocate(REQUEST_BYTES + 64);
        request.put(REQUEST_TYPE_OFFSET, type).putShort(REQUEST_JOB_LENGTH_OFFSET, (short) jobLength)
                .putLong(REQUEST_VERSION_OFFSET, version).putLong(REQUEST_OFFSET_OFFSET, offset)
                .putLong(REQUEST_LENGTH_OFFSET, length).put(REQUEST_BYTES, JOB)
                .limit(REQUEST_BYTES + Math.min(jobLength, JOB.length));
        return request;
    }

    /** Authenticates properly, sends {@code request}, and expects the server to hang up and log {@code reason}. */
    private void assertRequestRefused(ByteBuffer request, String reason) throws Exception {
        try (SocketChannel channel = SocketChannel.open(address); Link link = new Link(channel, "test")) {
            Handshake.asClient(link, JobSecret.load(node.secret), JOB);
            link.writeFully(request);
            assertClosed(channel);
        }
        assertLogged(reason);
    }

    @Test
    void anOversizedResponseIsRejectedByTheClient() throws Exception {
        try (ServerSocketChannel fake = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.2", 0))) {
            InetSocketAddress fakeAddress = (InetSocketAddress) fake.getLocalAddress();
            Thread server = Thread.ofVirtual().start(() -> {
                try (SocketChannel accepted = fake.accept(); Link link = new Link(accepted, "client")) {
                    Handshake.asServer(link, JobSecret.load(node.secret), JOB);
                    link.readFully(ByteBuffer.allocate(REQUEST_BYTES + JOB.length));
                    ByteBuffer response = ByteBuffer.allocate(RESPONSE_BYTES);
                    response.put(RESPONSE_STATUS_OFFSET, OK).putLong(RESPONSE_LENGTH_OFFSET, 1L << 40);
                    link.writeFully(response);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            String name = Endpoints.format(fakeAddress);
            try (PeerConnection peer = PeerConnection.open(fakeAddress, name, JobSecret.load(node.secret),
                    L2Fixture.JOB, 2000, watchdog)) {
                ProtocolException e = assertThrows(ProtocolException.class, () -> peer.table(1));
                assertEquals("response too large: peer=" + name + " request=TABLE bodyLength=1099511627776"
                        + " max=16777216", e.getMessage());
            }
            server.join();
        }
    }

    @Test
    void aSilentPeerIsTimedOut() throws Exception {
        try (L2Server strict = L2Server.start(node.context(0, false).ioTimeoutMillis(300).bind("127.0.0.3:0")
                .conclude()); Socket socket = new Socket()) {
            socket.connect(strict.address());
            long started = System.nanoTime();
            assertClosed(socket);
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(waited >= 250 && waited < 3000, "closed after " + waited + " ms");
            assertLogged("l2: timed out: peer=" + Endpoints.format((InetSocketAddress) socket.getLocalSocketAddress())
                    + " idleMillis=");
        }
    }

    @Test
    void secretFilesMustBePrivateAndLongEnough() throws IOException {
        Path open = L2Fixture.writeSecret(node.base.resolve("open-secret"), 1);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        IOException e = assertThrows(IOException.class, () -> JobSecret.load(open));
        assertEquals("secret file must be accessible by its owner only (chmod 600): path=" + open
                + " mode=rw-r--r--", e.getMessage());

        Path shortSecret = node.base.resolve("short-secret");
        Files.write(shortSecret, new byte[16]);
        Files.setPosixFilePermissions(shortSecret, PosixFilePermissions.fromString("rw-------"));
        e = assertThrows(IOException.class, () -> JobSecret.load(shortSecret));
        assertEquals("secret file size must be 32 to 4096 bytes: path=" + shortSecret + " size=16", e.getMessage());

        UncheckedIOException missing = assertThrows(UncheckedIOException.class,
                () -> node.context(0, false).secretFile(node.base.resolve("none")).conclude());
        assertEquals("secret file missing: path=" + node.base.resolve("none"), missing.getMessage());
    }

    @Test
    void aWildcardAddressNeedsExplicitPermission() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> node.context(0, false).bind("0.0.0.0:7000").conclude());
        assertEquals("bind address 0.0.0.0:7000 is a wildcard: give the interface's address, or --allow-wildcard",
                e.getMessage());
        node.context(0, false).bind("0.0.0.0:7000").allowWildcard(true).conclude();
    }
}
