package dev.lazarus.daemon.l2.wire;

import static dev.lazarus.daemon.l2.wire.WireLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Mutual authentication at the start of every L2 connection ({@link WireLayout} draws the messages): each side proves
 * it holds the job's secret with an HMAC over both sides' fresh nonces, and the server checks the job id. Runs once
 * per connection, so it may allocate.
 */
public final class Handshake {
    static final String SERVER_ROLE = "lazarus-l2 server";
    static final String CLIENT_ROLE = "lazarus-l2 client";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Handshake() {
    }

    /**
     * Authenticates to a server and authenticates it.
     *
     * @param job the job id's bytes, 1 to {@value WireLayout#MAX_JOB_BYTES}
     * @throws ProtocolException if the server is not an L2 server of this job or either side's proof fails
     */
    public static void asClient(Link link, JobSecret secret, byte[] job) throws IOException {
        byte[] clientNonce = nonce();
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES + job.length);
        hello.putInt(MAGIC).putShort(PROTOCOL).putShort((short) job.length).put(clientNonce).put(job).flip();
        link.writeFully(hello);
        ByteBuffer challenge = ByteBuffer.allocate(CHALLENGE_BYTES);
        link.readFully(challenge);
        if (challenge.getInt(CHALLENGE_MAGIC_OFFSET) != MAGIC) {
            throw new ProtocolException("not an L2 server (bad magic): peer=" + link.peer());
        }
        byte status = challenge.get(CHALLENGE_STATUS_OFFSET);
        if (status != AUTH_OK) {
            throw new ProtocolException(switch (status) {
                case AUTH_WRONG_JOB -> "peer serves another job: peer=" + link.peer() + " job=" + ascii(job);
                case AUTH_BAD_PROTOCOL -> "peer speaks another protocol: peer=" + link.peer() + " protocol="
                        + PROTOCOL;
                default -> "peer refused the hello: peer=" + link.peer() + " status=" + status;
            });
        }
        byte[] serverNonce = Arrays.copyOfRange(challenge.array(), CHALLENGE_NONCE_OFFSET,
                CHALLENGE_NONCE_OFFSET + NONCE_BYTES);
        byte[] serverProof = Arrays.copyOfRange(challenge.array(), CHALLENGE_PROOF_OFFSET,
                CHALLENGE_PROOF_OFFSET + PROOF_BYTES);
        if (!JobSecret.same(secret.proof(SERVER_ROLE, job, clientNonce, serverNonce), serverProof)) {
            throw new ProtocolException("peer failed authentication (wrong secret?): peer=" + link.peer()
                    + " job=" + ascii(job));
        }
        link.writeFully(ByteBuffer.wrap(secret.proof(CLIENT_ROLE, job, clientNonce, serverNonce)));
        ByteBuffer verdict = ByteBuffer.allocate(VERDICT_BYTES);
        link.readFully(verdict);
        if (verdict.get(0) != AUTH_OK) {
            throw new ProtocolException("peer refused authentication (wrong secret?): peer=" + link.peer()
                    + " job=" + ascii(job));
        }
    }

    /**
     * Authenticates a client of {@code job} and proves this server to it. On a wrong job or secret the client is told
     * so before the connection is closed; on a malformed hello it is not answered.
     *
     * @throws ProtocolException with the reason to log; the caller closes the connection
     */
    public static void asServer(Link link, JobSecret secret, byte[] job) throws IOException {
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
        link.readFully(hello);
        if (hello.getInt(HELLO_MAGIC_OFFSET) != MAGIC) {
            throw new ProtocolException("not an L2 client (bad magic)");
        }
        if (hello.getShort(HELLO_PROTOCOL_OFFSET) != PROTOCOL) {
            reply(link, AUTH_BAD_PROTOCOL, null, null);
            throw new ProtocolException("unsupported protocol=" + hello.getShort(HELLO_PROTOCOL_OFFSET));
        }
        int jobLength = Short.toUnsignedInt(hello.getShort(HELLO_JOB_LENGTH_OFFSET));
        if (jobLength < 1 || jobLength > MAX_JOB_BYTES) {
            throw new ProtocolException("hello job length=" + jobLength + " outside 1.." + MAX_JOB_BYTES);
        }
        byte[] clientNonce = Arrays.copyOfRange(hello.array(), HELLO_NONCE_OFFSET, HELLO_NONCE_OFFSET + NONCE_BYTES);
        ByteBuffer clientJob = ByteBuffer.allocate(jobLength);
        link.readFully(clientJob);
        if (!Arrays.equals(clientJob.array(), job)) {
            reply(link, AUTH_WRONG_JOB, null, null);
            throw new ProtocolException("hello for another job: job=" + ascii(clientJob.array()));
        }
        byte[] serverNonce = nonce();
        reply(link, AUTH_OK, serverNonce, secret.proof(SERVER_ROLE, job, clientNonce, serverNonce));
        ByteBuffer clientProof = ByteBuffer.allocate(PROOF_BYTES);
        link.readFully(clientProof);
        boolean good = JobSecret.same(secret.proof(CLIENT_ROLE, job, clientNonce, serverNonce), clientProof.array());
        ByteBuffer verdict = ByteBuffer.allocate(VERDICT_BYTES).put(0, good ? AUTH_OK : AUTH_DENIED);
        link.writeFully(verdict);
        if (!good) {
            throw new ProtocolException("client proof does not match (wrong secret)");
        }
    }

    private static void reply(Link link, byte status, byte[] nonce, byte[] proof) throws IOException {
        ByteBuffer challenge = ByteBuffer.allocate(CHALLENGE_BYTES);
        challenge.putInt(CHALLENGE_MAGIC_OFFSET, MAGIC).put(CHALLENGE_STATUS_OFFSET, status);
        if (nonce != null) {
            challenge.put(CHALLENGE_NONCE_OFFSET, nonce).put(CHALLENGE_PROOF_OFFSET, proof);
        }
        link.writeFully(challenge);
    }

    private static byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** @return the bytes as text safe for a log line: anything outside a job id's characters becomes '?' */
    public static String ascii(byte[] bytes) {
        StringBuilder text = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            char c = (char) (b & 0xFF);
            boolean safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '.' || c == '-';
            text.append(safe ? c : '?');
        }
        return text.toString();
    }
}
