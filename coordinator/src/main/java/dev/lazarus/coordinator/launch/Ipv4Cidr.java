package dev.lazarus.coordinator.launch;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An IPv4 network in CIDR notation, as Open MPI's {@code *_if_include} parameters take it. */
final class Ipv4Cidr {
    private static final Pattern CIDR = Pattern.compile("([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})"
            + "/([0-9]{1,2})");

    private Ipv4Cidr() {
    }

    /**
     * @param cidr the {@code --net} value
     * @return {@code cidr}
     * @throws IllegalArgumentException one line if an octet is above 255 or the prefix above 32
     */
    static String check(String cidr) {
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
}
