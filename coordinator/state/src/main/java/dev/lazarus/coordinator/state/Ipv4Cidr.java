package dev.lazarus.coordinator.state;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An IPv4 network in CIDR notation, as Open MPI's {@code *_if_include} parameters take it. */
public final class Ipv4Cidr {
    private static final Pattern CIDR = Pattern.compile("([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})"
            + "/([0-9]{1,2})");

    private Ipv4Cidr() {
    }

    /**
     * @param cidr the {@code --net} value
     * @return {@code cidr}
     * @throws IllegalArgumentException one line if an octet is above 255 or the prefix above 32
     */
    public static String check(String cidr) {
        Matcher m = CIDR.matcher(cidr);
        boolean valid = m.matches() && Integer.parseInt(m.group(5)) <= 32;
        for (int octet = 1; valid && octet <= 4; octet++) {
            valid = Integer.parseInt(m.group(octet)) <= 255;
        }
        if (!valid) {
            throw new IllegalArgumentException("--net=" + cidr + " is not an IPv4 CIDR such as 10.1.0.0/24"
                    + " (octets 0 to 255, prefix 0 to 32)");
        }
        return cidr;
    }

    /**
     * @return this host's IPv4 address inside {@code cidr}: where the job's services bind
     * @throws IllegalArgumentException one line when no interface of this host has one
     */
    public static String localAddress(String cidr) {
        Matcher m = CIDR.matcher(check(cidr));
        m.matches();
        int prefix = Integer.parseInt(m.group(5));
        int network = 0;
        for (int octet = 1; octet <= 4; octet++) {
            network = network << 8 | Integer.parseInt(m.group(octet));
        }
        int mask = prefix == 0 ? 0 : -1 << (32 - prefix);
        try {
            for (NetworkInterface nic : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress address : java.util.Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address v4 && (ByteBuffer.wrap(v4.getAddress()).getInt() & mask)
                            == (network & mask)) {
                        return v4.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalArgumentException("--net=" + cidr + ": cannot list this host's interfaces: "
                    + e.getMessage());
        }
        throw new IllegalArgumentException("--net=" + cidr + ": no interface of this host has an address in it");
    }
}
