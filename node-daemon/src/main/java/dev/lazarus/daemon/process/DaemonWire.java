package dev.lazarus.daemon.process;

import dev.lazarus.daemon.l2.wire.ProtocolException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The messages between a rank and its node's daemon process, after the L2 handshake (both prove the job's secret) on
 * the daemon's Unix socket. A request is an int operation and its arguments; a response a status byte, then the
 * result ({@link #OK}) or one line ({@link #ERROR}). Strings are an int length and UTF-8; every length and count read
 * is bounded before anything is allocated.
 *
 * <pre>
 *   OPEN    worldSize int, setSize int, scheme byte (0 xor, 1 partner), l1Root, bindHost  -> endpoint
 *   JOIN    count int, count endpoints, self int                      -> scheme byte, setId, member, size ints
 *   SUBMIT  version long                                                -> parity bytes long
 *   REBUILD version long      -> count int, count versions rebuilt, failed version long, has failure byte, [failure]
 *   DRAIN_L3 version long, l3Root, direct byte, count int, count ranks ints   -> bytes written long
 *   PRUNE / FORGET version long, RELEASE                                -> nothing
 * </pre>
 */
public final class DaemonWire {
    public static final int OPEN = 1;
    public static final int JOIN = 2;
    public static final int SUBMIT = 3;
    public static final int REBUILD = 4;
    public static final int PRUNE = 5;
    public static final int FORGET = 6;
    public static final int RELEASE = 7;
    public static final int DRAIN_L3 = 8;
    public static final byte OK = 0;
    public static final byte ERROR = 1;
    public static final int MAX_STRING_BYTES = 4096;
    public static final int MAX_COUNT = 1 << 16;

    private DaemonWire() {
    }

    static void writeString(DataOutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_STRING_BYTES) {
            throw new IllegalArgumentException("node daemon message string of " + bytes.length + " bytes exceeds "
                    + MAX_STRING_BYTES);
        }
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String readString(DataInputStream in) throws IOException {
        int length = count(in, MAX_STRING_BYTES, "string length");
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** @return a count read from {@code in}, checked to be 0 to {@code max} */
    static int count(DataInputStream in, int max, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > max) {
            throw new ProtocolException("node daemon message " + what + "=" + n + " outside 0.." + max);
        }
        return n;
    }
}
