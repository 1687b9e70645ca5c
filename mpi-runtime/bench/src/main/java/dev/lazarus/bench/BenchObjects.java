package dev.lazarus.bench;

import dev.lazarus.easycrash.DoubleArray;
import dev.lazarus.easycrash.IntArray;
import dev.lazarus.easycrash.ObjectRole;

import java.util.Arrays;

/**
 * The data objects of one benchmark trial, in the implementation a JMH {@code @Param({"mapped", "plain"}) String
 * objects} names: {@value #MAPPED} objects are placed as a rank places them ({@code EasyCrash.doubles}), in a
 * throw-away persistent heap under {@code /dev/shm} (see {@link BenchHeap}) but for temporary and read-only ones
 * ({@link ObjectRole#inHeapOutsideCampaigns()}), which are plain arrays; {@value #PLAIN} ones are all plain Java arrays
 * ({@link DoubleArray#plain}), as with EasyCrash off.
 * The kernel loops then run unchanged on either. JMH runs each parameter value in its own fork, so a JVM loads only
 * one implementation, as a Lazarus rank does.
 */
public final class BenchObjects implements AutoCloseable {
    /** The {@code objects} value for objects in a persistent heap. */
    public static final String MAPPED = "mapped";
    /** The {@code objects} value for plain Java arrays. */
    public static final String PLAIN = "plain";

    /** The heap of mapped objects, or {@code null} for plain ones. */
    private final BenchHeap nvm;

    private BenchObjects(BenchHeap nvm) {
        this.nvm = nvm;
    }

    /**
     * Objects of the kind {@code objects} names.
     *
     * @param objectBytes the size in bytes of every object the trial will allocate (the heap's capacity)
     * @throws IllegalArgumentException unless {@code objects} is {@value #MAPPED} or {@value #PLAIN}
     */
    public static BenchObjects open(String objects, long... objectBytes) {
        return switch (objects) {
            case MAPPED -> new BenchObjects(BenchHeap.open(objectBytes));
            case PLAIN -> new BenchObjects(null);
            default -> throw new IllegalArgumentException("objects=" + objects + " must be " + MAPPED + " or "
                    + PLAIN);
        };
    }

    /**
     * Objects of the kind {@code objects} names, with room in the heap (when mapped) for {@code double} objects of
     * the given lengths.
     *
     * @throws IllegalArgumentException unless {@code objects} is {@value #MAPPED} or {@value #PLAIN}
     */
    public static BenchObjects of(String objects, int... doubleLengths) {
        return open(objects, Arrays.stream(doubleLengths).mapToLong(n -> 8L * n).toArray());
    }

    /** A new candidate {@code double} object of {@code length} zeros. */
    public DoubleArray doubles(String name, int length) {
        return doubles(name, length, ObjectRole.CANDIDATE);
    }

    /** A new {@code double} object of {@code length} zeros. */
    public DoubleArray doubles(String name, int length, ObjectRole role) {
        return inHeap(role) ? nvm.heap.doubles(name, length, role) : DoubleArray.plain(name, length, role);
    }

    /** A new {@code double} object holding a copy of {@code values}. */
    public DoubleArray doubles(String name, double[] values, ObjectRole role) {
        DoubleArray array = doubles(name, values.length, role);
        array.copyFrom(values);
        return array;
    }

    /** A new {@code int} object of {@code length} zeros. */
    public IntArray ints(String name, int length, ObjectRole role) {
        return inHeap(role) ? nvm.heap.ints(name, length, role) : IntArray.plain(name, length, role);
    }

    /** A new {@code int} object holding a copy of {@code values}. */
    public IntArray ints(String name, int[] values, ObjectRole role) {
        IntArray array = ints(name, values.length, role);
        array.copyFrom(values);
        return array;
    }

    /** Whether an object of {@code role} goes into the heap: among mapped objects, where a rank would put it. */
    private boolean inHeap(ObjectRole role) {
        return nvm != null && role.inHeapOutsideCampaigns();
    }

    /** Unmaps and deletes the heap of mapped objects; nothing for plain ones. */
    @Override
    public void close() {
        if (nvm != null) {
            nvm.close();
        }
    }
}
