package dev.lazarus.daemon.l2;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * The XOR set one node belongs to: the node list is cut into consecutive sets of the configured size, the last one
 * possibly smaller. A set of one node has no partner to hold parity, so its checkpoints get no L2 protection.
 *
 * @param setId     index of the set in the node list
 * @param member    this node's index within the set
 * @param names     the members' addresses as configured (host:port), in set order
 * @param addresses the same, resolved
 */
public record XorSetMembership(int setId, int member, List<String> names, List<InetSocketAddress> addresses) {

    public XorSetMembership {
        names = List.copyOf(names);
        addresses = List.copyOf(addresses);
        if (names.isEmpty() || names.size() != addresses.size() || member < 0 || member >= names.size()) {
            throw new IllegalArgumentException("XOR set membership invalid: setId=" + setId + " member=" + member
                    + " names=" + names.size() + " addresses=" + addresses.size());
        }
    }

    /**
     * @param names     every node's address as configured, in node order
     * @param addresses the same, resolved
     * @param self      this node's index in the node list
     * @param setSize   the configured set size, at least 2
     * @return the set {@code self} belongs to
     * @throws IllegalArgumentException if {@code self} or {@code setSize} is out of range
     */
    public static XorSetMembership of(List<String> names, List<InetSocketAddress> addresses, int self, int setSize) {
        if (self < 0 || self >= names.size() || setSize < 2 || names.size() != addresses.size()) {
            throw new IllegalArgumentException("XOR set invalid: self=" + self + " nodes=" + names.size()
                    + " setSize=" + setSize);
        }
        int setId = self / setSize;
        int first = setId * setSize;
        int end = Math.min(names.size(), first + setSize);
        return new XorSetMembership(setId, self - first, names.subList(first, end), addresses.subList(first, end));
    }

    /** @return the number of members */
    public int size() {
        return names.size();
    }

    /** @return whether the set has a partner to hold parity: at least two members */
    public boolean redundant() {
        return names.size() >= 2;
    }

    @Override
    public String toString() {
        return "set=" + setId + " member=" + member + " of " + names.size() + " " + names;
    }
}
