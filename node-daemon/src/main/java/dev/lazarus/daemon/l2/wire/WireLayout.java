package dev.lazarus.daemon.l2.wire;

/**
 * The L2 protocol between node daemons, big-endian (network order). A connection first authenticates both ways with
 * the job's secret, then carries requests one at a time, each answered before the next is sent.
 *
 * <pre>
 *  client hello, HELLO_BYTES + job length
 *  0        4        6        8                                   40
 *  +--------+--------+--------+-----------------------------------+----------------------+
 *  | magic  | proto  | job len| client nonce, 32 random bytes     | job id, ASCII        |
 *  | u32    | u16    | u16    |                                   | 1..64 bytes          |
 *  +--------+--------+--------+-----------------------------------+----------------------+
 *
 *  server challenge, CHALLENGE_BYTES (nonce and proof are zeros unless status is OK)
 *  0        4      5      8                                   40                                  72
 *  +--------+------+------+-----------------------------------+-----------------------------------+
 *  | magic  |status| 0    | server nonce, 32 random bytes     | server proof, HMAC-SHA256         |
 *  +--------+------+------+-----------------------------------+-----------------------------------+
 *
 *  client proof, PROOF_BYTES                     server verdict, VERDICT_BYTES
 *  +-----------------------------------+        +------+------+
 *  | client proof, HMAC-SHA256         |        |status| 0    |
 *  +-----------------------------------+        +------+------+
 *
 *  proof of a role = HMAC-SHA256(secret, role label | job id | client nonce | server nonce), role label
 *  "lazarus-l2 server" or "lazarus-l2 client": fresh nonces from both sides defeat replay, and the labels keep a
 *  server's proof from being reflected back as a client's.
 *
 *  request, REQUEST_BYTES + job length
 *  0      1      2        4                  12                 20                 28       32
 *  +------+------+--------+------------------+------------------+------------------+--------+----------+
 *  | type | 0    | job len| version u64      | offset u64       | length u64       | 0 u32  | job id   |
 *  +------+------+--------+------------------+------------------+------------------+--------+----------+
 *   TABLE: the payload table of the version (offset, length 0)    PARITY_MANIFEST: the parity manifest file
 *   PAYLOAD_RANGE: bytes [offset, offset + length) of the payload PARITY_RANGE: the same of the parity file
 *
 *  response, RESPONSE_BYTES then the body
 *  0      1      4        8                  16
 *  +------+------+--------+------------------+--------------------------------------------------+
 *  |status| 0    | 0 u32  | body length u64  | OK: table, manifest, or exactly the bytes asked   |
 *  +------+------+--------+------------------+ ERROR: one line of ASCII, at most MAX_ERROR_BYTES |
 * </pre>
 *
 * Every length read off the wire is bounded before anything is allocated or read: job ids by
 * {@value #MAX_JOB_BYTES}, tables and manifests by {@value #MAX_DOCUMENT_BYTES}, error lines by
 * {@value #MAX_ERROR_BYTES}, ranges by {@value #MAX_RANGE_BYTES} and by the file they are read from.
 */
public final class WireLayout {
    /** "LZL2". */
    public static final int MAGIC = 0x4C5A4C32;
    public static final short PROTOCOL = 1;
    public static final int NONCE_BYTES = 32;
    public static final int PROOF_BYTES = 32;
    public static final int MAX_JOB_BYTES = 64;

    public static final int HELLO_MAGIC_OFFSET = 0;
    public static final int HELLO_PROTOCOL_OFFSET = 4;
    public static final int HELLO_JOB_LENGTH_OFFSET = 6;
    public static final int HELLO_NONCE_OFFSET = 8;
    public static final int HELLO_BYTES = 40;

    public static final int CHALLENGE_MAGIC_OFFSET = 0;
    public static final int CHALLENGE_STATUS_OFFSET = 4;
    public static final int CHALLENGE_NONCE_OFFSET = 8;
    public static final int CHALLENGE_PROOF_OFFSET = 40;
    public static final int CHALLENGE_BYTES = 72;

    public static final int VERDICT_BYTES = 4;

    /** Handshake statuses. */
    public static final byte AUTH_OK = 0;
    public static final byte AUTH_WRONG_JOB = 1;
    public static final byte AUTH_DENIED = 2;
    public static final byte AUTH_BAD_PROTOCOL = 3;

    public static final int REQUEST_TYPE_OFFSET = 0;
    public static final int REQUEST_JOB_LENGTH_OFFSET = 2;
    public static final int REQUEST_VERSION_OFFSET = 4;
    public static final int REQUEST_OFFSET_OFFSET = 12;
    public static final int REQUEST_LENGTH_OFFSET = 20;
    public static final int REQUEST_BYTES = 32;

    /** Request types. */
    public static final byte TABLE = 1;
    public static final byte PARITY_MANIFEST = 2;
    public static final byte PAYLOAD_RANGE = 3;
    public static final byte PARITY_RANGE = 4;

    public static final int RESPONSE_STATUS_OFFSET = 0;
    public static final int RESPONSE_LENGTH_OFFSET = 8;
    public static final int RESPONSE_BYTES = 16;

    /** Response statuses. */
    public static final byte OK = 0;
    public static final byte ERROR = 1;

    /** Largest table or parity manifest sent or accepted. */
    public static final int MAX_DOCUMENT_BYTES = 16 << 20;
    /** Longest error line sent or accepted. */
    public static final int MAX_ERROR_BYTES = 1024;
    /** Longest range one request may ask for; clients ask for windows far smaller. */
    public static final long MAX_RANGE_BYTES = 1L << 30;

    private WireLayout() {
    }

    /** @return the name of a request type, for messages */
    public static String requestName(int type) {
        return switch (type) {
            case TABLE -> "TABLE";
            case PARITY_MANIFEST -> "PARITY_MANIFEST";
            case PAYLOAD_RANGE -> "PAYLOAD_RANGE";
            case PARITY_RANGE -> "PARITY_RANGE";
            default -> "type=" + type;
        };
    }
}
