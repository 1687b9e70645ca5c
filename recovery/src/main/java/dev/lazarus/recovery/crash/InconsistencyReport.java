package dev.lazarus.recovery.crash;

import java.util.List;
import java.util.Locale;

/**
 * NVCT's data inconsistent rate of each object at one crash: the object's dirty bytes (bytes of dirty lines whose
 * live value differs from what NVM holds) divided by the object's size.
 */
public final class InconsistencyReport {
    private final List<ObjectRange> objects;
    private final long[] dirtyBytes;

    /**
     * @param objects    the objects, in the caller's order
     * @param dirtyBytes dirty bytes of each object, same order (kept, not copied)
     */
    public InconsistencyReport(List<ObjectRange> objects, long[] dirtyBytes) {
        if (objects.size() != dirtyBytes.length) {
            throw new IllegalArgumentException("objects=" + objects.size() + " but dirtyBytes=" + dirtyBytes.length);
        }
        this.objects = List.copyOf(objects);
        this.dirtyBytes = dirtyBytes;
    }

    public List<ObjectRange> objects() {
        return objects;
    }

    /** Dirty bytes of the {@code index}-th object. */
    public long dirtyBytes(int index) {
        return dirtyBytes[index];
    }

    /** Dirty bytes of the object named {@code name}. */
    public long dirtyBytes(String name) {
        return dirtyBytes[indexOf(name)];
    }

    /** Inconsistent rate of the {@code index}-th object, from 0 to 1. */
    public double rate(int index) {
        return (double) dirtyBytes[index] / objects.get(index).length();
    }

    /** Inconsistent rate of the object named {@code name}, from 0 to 1. */
    public double rate(String name) {
        return rate(indexOf(name));
    }

    /** Dirty bytes over all objects. */
    public long totalDirtyBytes() {
        long total = 0;
        for (long bytes : dirtyBytes) {
            total += bytes;
        }
        return total;
    }

    private int indexOf(String name) {
        for (int i = 0; i < objects.size(); i++) {
            if (objects.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no object name=" + name + " in the report; objects are "
                + objects.stream().map(ObjectRange::name).toList());
    }

    /** One line per object: {@code name dirty=N/size rate=R}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < objects.size(); i++) {
            text.append(objects.get(i).name()).append(" dirty=").append(dirtyBytes[i]).append('/')
                    .append(objects.get(i).length()).append(" rate=")
                    .append(String.format(Locale.ROOT, "%.6f", rate(i))).append('\n');
        }
        return text.toString();
    }
}
