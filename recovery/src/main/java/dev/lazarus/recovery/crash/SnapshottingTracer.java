package dev.lazarus.recovery.crash;

import dev.lazarus.easycrash.trace.AccessTracer;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Drives a {@link CacheModel} through one traced run and takes a {@link CrashSnapshot} at every crash point, handing
 * each to a consumer as it comes. A deterministic application's run is identical up to every crash point, so one
 * traced run yields what N crashed runs would, and the consumer can process and drop each snapshot (streaming)
 * instead of holding N heap images.
 *
 * <p>The snapshot for point {@code c} is taken when access {@code c} (0-based) is traced, before the model or the
 * application acts on it: the state after exactly {@code c} accesses. Points at or past the run's last access never
 * fire; {@link #taken()} says how many did. The consumer runs on the application thread, inside the traced access.
 */
public final class SnapshottingTracer implements AccessTracer {
    private final CacheModel model;
    private final long[] points;
    private final List<ObjectRange> objects;
    private final long imageOffset;
    private final long imageLength;
    private final Consumer<? super CrashSnapshot> consumer;
    private int taken;
    /** The next point, or Long.MAX_VALUE once all fired: one compare per access, no bounds check. */
    private long nextPoint;

    /** Snapshots of the whole heap, without per-object reports. */
    public SnapshottingTracer(CacheModel model, CrashPoints points, Consumer<? super CrashSnapshot> consumer) {
        this(model, points, List.of(), 0, -1, consumer);
    }

    /**
     * @param model       the model, usually fresh (its access count must not have passed the first point)
     * @param points      where to crash
     * @param objects     objects whose inconsistency every snapshot reports
     * @param imageOffset heap offset of the NVM image kept in each snapshot
     * @param imageLength bytes of image, or -1 for the rest of the heap from {@code imageOffset}
     * @param consumer    receives the snapshots in order
     * @throws IllegalArgumentException if the image range leaves the heap or the first point is already past
     */
    public SnapshottingTracer(CacheModel model, CrashPoints points, List<ObjectRange> objects, long imageOffset,
                              long imageLength, Consumer<? super CrashSnapshot> consumer) {
        this.model = Objects.requireNonNull(model, "model");
        this.points = points.toArray();
        this.objects = List.copyOf(objects);
        this.imageOffset = imageOffset;
        this.imageLength = imageLength >= 0 ? imageLength : model.heapSize() - imageOffset;
        if (imageOffset < 0 || this.imageLength < 0 || imageOffset + this.imageLength > model.heapSize()
                || this.imageLength > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("snapshot image offset=" + imageOffset + " length=" + imageLength
                    + " must lie in the heap size=" + model.heapSize() + " and fit a byte[]");
        }
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        if (this.points.length > 0 && this.points[0] < model.accessCount()) {
            throw new IllegalArgumentException("crash point=" + this.points[0] + " is already past: the model has "
                    + "seen accessCount=" + model.accessCount());
        }
        this.nextPoint = this.points.length > 0 ? this.points[0] : Long.MAX_VALUE;
    }

    @Override
    public void load(long address, int bytes) {
        if (model.accessCount() == nextPoint) {
            crash();
        }
        model.load(address, bytes);
    }

    @Override
    public void store(long address, int bytes) {
        if (model.accessCount() == nextPoint) {
            crash();
        }
        model.store(address, bytes);
    }

    private void crash() {
        CrashSnapshot snapshot = model.snapshot(taken, objects, imageOffset, imageLength);
        taken++;
        nextPoint = taken < points.length ? points[taken] : Long.MAX_VALUE;
        consumer.accept(snapshot);
    }

    @Override
    public void persist(long address, long length) {
        model.persist(address, length);
    }

    @Override
    public void regionEnd(int region, int iteration) {
        model.regionEnd(region, iteration);
    }

    @Override
    public void iterationBegin(int iteration) {
        model.iterationBegin(iteration);
    }

    /** Snapshots handed to the consumer so far. */
    public int taken() {
        return taken;
    }

    /** Whether every crash point has fired (the rest of the run can be cut short). */
    public boolean done() {
        return taken == points.length;
    }

    public CacheModel model() {
        return model;
    }
}
