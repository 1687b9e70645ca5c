package dev.lazarus.easycrash;

/**
 * When {@code DoubleArray}'s bulk operations on heap objects start running lane-wise ({@link VectorLoops}): once this
 * JVM has run {@link #ELEMENTS_BEFORE_LANES} elements through them element by element.
 *
 * <p>Why wait: until C2 has compiled a Vector API loop, the interpreter and C1 run the API's Java fallback, which
 * allocates and calls through lambdas for every lane operation, and C2 compiles that fallback too, ahead of the
 * application's own hot loops. For CG class A on one rank that start-up cost about 60 ms of a 0.5 s run (the run took
 * 1.19 times as long as on plain arrays; 1.05 with the element loops), while the lanes save about 0.4 ns per element
 * once compiled (CgLoopsBench class A daxpy: 4.2 us lane-wise, 9.9 us element by element, for 14,000 elements). The
 * rule is the ski-rental one: pay for the element loops until they have cost about what the warm-up costs (60 ms /
 * 0.4 ns = 1.5e8 elements), then switch, which never costs more than twice the better choice made in hindsight. A short
 * run (CG class A: about 2.5e7 elements) never switches; a long one (class B, C) switches early in its run, and a JMH
 * benchmark during its warm-up iterations.
 *
 * <p>The count is a plain static field: a race between threads can only lose some counts and delay the switch.
 */
final class BulkLanePolicy {
    /** Elements run element by element before the bulk operations go lane-wise: about 1.5e8 (see the class comment). */
    static final long ELEMENTS_BEFORE_LANES = 1L << 27;

    private static long elementWise;

    private BulkLanePolicy() {
    }

    /**
     * Whether a bulk operation over {@code elements} elements runs lane-wise; if not, counts them, as the caller then
     * runs them element by element.
     */
    static boolean lanewise(int elements) {
        if (elementWise >= ELEMENTS_BEFORE_LANES) {
            return true;
        }
        elementWise += elements;
        return false;
    }

    /** Starts counting again, or switches to lanes now (tests of both paths). */
    static void reset(boolean lanesNow) {
        elementWise = lanesNow ? ELEMENTS_BEFORE_LANES : 0;
    }
}
