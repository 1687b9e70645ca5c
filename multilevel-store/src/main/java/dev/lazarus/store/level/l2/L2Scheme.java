package dev.lazarus.store.level.l2;

import dev.lazarus.store.level.xor.XorSetLayout;

import java.util.Locale;

/**
 * How the nodes of a set protect each other's L1 files, after SCR's redundancy schemes. Either way each member stores
 * one redundancy file per version beside its rank files ({@code l2-parity.xor}, described by its parity manifest).
 */
public enum L2Scheme {
    /**
     * RAID-5 across the set: each member stores one XOR parity chunk, 1/(n-1) of a payload. Survives the loss of any
     * one member of the set.
     */
    XOR(0),
    /**
     * A full copy of the left neighbour's payload on each member (member m holds member m-1's, around the set's
     * ring). Costs a whole payload of storage and transfer per node, and survives any losses in the set that do not
     * include a member together with its right neighbour, which holds its copy.
     */
    PARTNER(1);

    private final int code;

    L2Scheme(int code) {
        this.code = code;
    }

    /** @return the scheme's number in the parity manifest */
    public int code() {
        return code;
    }

    /** @return the scheme with this manifest number, or null if none has it */
    public static L2Scheme ofCode(int code) {
        for (L2Scheme scheme : values()) {
            if (scheme.code == code) {
                return scheme;
            }
        }
        return null;
    }

    /**
     * @param name {@code xor} or {@code partner}, in any case
     * @throws IllegalArgumentException naming the accepted values otherwise
     */
    public static L2Scheme parse(String name) {
        for (L2Scheme scheme : values()) {
            if (scheme.label().equals(name.strip().toLowerCase(Locale.ROOT))) {
                return scheme;
            }
        }
        throw new IllegalArgumentException("L2 scheme '" + name + "' unknown, expected xor or partner");
    }

    /** @return the scheme's name in settings and reports: {@code xor}, {@code partner} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return what reports call a set of this scheme: {@code XOR set}, {@code partner set} */
    public String setName() {
        return this == XOR ? "XOR set" : "partner set";
    }

    /**
     * @return the size of member {@code member}'s parity file: the layout's chunk size under XOR, its left
     *         neighbour's payload size under PARTNER
     */
    public long paritySize(XorSetLayout layout, int member) {
        return this == XOR ? layout.chunkSize() : layout.payloadSize(copiedFrom(member, layout.setSize()));
    }

    /** @return the member holding {@code member}'s copy under {@link #PARTNER}: its right neighbour */
    public static int partnerOf(int member, int setSize) {
        return (member + 1) % setSize;
    }

    /** @return the member whose payload {@code holder} copies under {@link #PARTNER}: its left neighbour */
    public static int copiedFrom(int holder, int setSize) {
        return (holder - 1 + setSize) % setSize;
    }
}
