package dev.lazarus.daemon;

import dev.lazarus.store.level.l2.L2Scheme;

/**
 * A node's place in its L2 set.
 *
 * @param scheme the set's scheme (XOR parity or partner copies)
 * @param setId  which set of the job, from 0
 * @param member this node's index in the set, from 0
 * @param size   nodes in the set
 */
public record L2Membership(L2Scheme scheme, int setId, int member, int size) {

    /** @throws IllegalArgumentException if the member is outside the set */
    public L2Membership {
        if (size < 1 || member < 0 || member >= size || setId < 0) {
            throw new IllegalArgumentException("L2 membership setId=" + setId + " member=" + member + " size=" + size
                    + " is not a place in a set");
        }
    }

    /** @return whether another node holds what rebuilds this one: a set of one protects nothing */
    public boolean redundant() {
        return size > 1;
    }
}
