package dev.lazarus.bench;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.ObjectRole;

import java.util.Arrays;

/**
 * The data objects of one benchmark trial, of the implementation a JMH {@code @Param String objects} names:
 * {@value #MAPPED} (persistent heap, in a throw-away {@link BenchHeap}) or {@value #PLAIN} ({@link DoubleArray#plain},
 * what an application gets with EasyCrash off). JMH runs each parameter value in its own fork, so a trial's JVM loads
 * only one {@link DoubleArray} implementation, as a rank does, and the accessors are devirtualized as in a run.
 */
public final class BenchObjects implements AutoCloseable {
    /** The parameter value for persistent-heap objects. */
    public static final String MAPPED = "mapped";
    /** The parameter value for plain Java arrays. */
    public static final String PLAIN = "plain";

    private final BenchHeap nvm;

    private BenchObjects(BenchHeap nvm) {
        this.nvm = nvm;
    }

    /**
     * Objects of the implementation {@code objects} names, with room in the heap (when mapped) for {@code double}
     * arrays of the given lengths.
     *
     * @throws IllegalArgumentException if {@code objects} is neither {@value #MAPPED} nor {@value #PLAIN}
     */
    public static BenchObjects of(String objects, int... doubleLengths) {
        return switch (objects) {
            case MAPPED -> new BenchObjects(BenchHeap.open(Arrays.stream(doubleLengths).mapToLong(n -> 8L * n)
                    .toArray()));
            case PLAIN -> new BenchObjects(null);
            default -> throw new IllegalArgumentException("objects=" + objects + ": expected " + MAPPED + " or "
                    + PLAIN);
        };
    }

    /** A zeroed {@code double} array called {@code name} (a candidate object, when mapped). */
    public DoubleArray doubles(String name, int length) {
        return nvm == null ? DoubleArray.plain(name, length, ObjectRole.CANDIDATE)
                : nvm.heap().doubles(name, length, ObjectRole.CANDIDATE);
    }

    /** Releases the heap, if any. */
    @Override
    public void close() {
        if (nvm != null) {
            nvm.close();
        }
    }
}
