package dev.lazarus.daemon.l2.wire;

import java.nio.charset.StandardCharsets;

/** Text from the network made safe for one log line. */
public final class Printable {
    private Printable() {
    }

    /** @return the bytes as ASCII, anything but printable characters (line breaks included) replaced by '?' */
    public static String line(byte[] bytes) {
        byte[] safe = bytes.clone();
        for (int i = 0; i < safe.length; i++) {
            if (safe[i] < 0x20 || safe[i] > 0x7E) {
                safe[i] = '?';
            }
        }
        return new String(safe, StandardCharsets.US_ASCII);
    }

    /** @return the message cut to {@code max} bytes of ASCII, as sent in an error response */
    public static byte[] errorBytes(String message, int max) {
        byte[] bytes = line(message.getBytes(StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII);
        return bytes.length <= max ? bytes : java.util.Arrays.copyOf(bytes, max);
    }
}
