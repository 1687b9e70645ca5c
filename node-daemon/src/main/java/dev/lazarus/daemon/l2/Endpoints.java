package dev.lazarus.daemon.l2;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** Parsing of {@code host:port} and {@code [v6-address]:port}. */
public final class Endpoints {
    private Endpoints() {
    }

    /**
     * @return the resolved address
     * @throws IllegalArgumentException one line naming the text and what is wrong with it
     */
    public static InetSocketAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        // Addresses are recorded in parity manifests: one token of printable ASCII.
        if (colon <= 0 || colon == text.length() - 1 || text.length() > 255
                || !text.chars().allMatch(c -> c > ' ' && c < 0x7F)) {
            throw new IllegalArgumentException("address '" + text.replaceAll("[^!-~]", "?")
                    + "' must be host:port, at most 255 printable ASCII characters");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("address '" + text + "': port must be 0 to 65535");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("address '" + text + "': unknown host " + host);
        }
    }

    /** @return {@code host:port} of a bound or resolved address, IPv6 hosts in brackets */
    public static String format(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
