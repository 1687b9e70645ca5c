package dev.lazarus.mpi.spi;

import dev.lazarus.mpi.ReduceOp;

/**
 * Element-wise reductions of Java arrays, for backends and stand-ins that reduce ranks' contributions themselves (in
 * rank order, so that every rank gets the same bits).
 */
public final class Reductions {
    private Reductions() {
    }

    /**
     * {@code into[intoOffset + i] = into[intoOffset + i] op from[fromOffset + i]} for {@code i < count}; both arrays of
     * one element type ({@code double[]}, {@code long[]}, {@code int[]} or {@code byte[]}). {@code int}s and bytes
     * combine as Java's arithmetic on them does (wrapping).
     */
    public static void combineInto(ReduceOp op, Object from, int fromOffset, Object into, int intoOffset, int count) {
        switch (into) {
            case double[] out -> {
                double[] in = (double[]) from;
                for (int i = 0; i < count; i++) {
                    out[intoOffset + i] = apply(op, out[intoOffset + i], in[fromOffset + i]);
                }
            }
            case long[] out -> {
                long[] in = (long[]) from;
                for (int i = 0; i < count; i++) {
                    out[intoOffset + i] = apply(op, out[intoOffset + i], in[fromOffset + i]);
                }
            }
            case int[] out -> {
                int[] in = (int[]) from;
                for (int i = 0; i < count; i++) {
                    out[intoOffset + i] = (int) apply(op, out[intoOffset + i], in[fromOffset + i]);
                }
            }
            case byte[] out -> {
                byte[] in = (byte[]) from;
                for (int i = 0; i < count; i++) {
                    out[intoOffset + i] = (byte) apply(op, out[intoOffset + i], in[fromOffset + i]);
                }
            }
            default -> throw new IllegalArgumentException("cannot reduce a " + into.getClass().getName());
        }
    }

    private static double apply(ReduceOp op, double a, double b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
        };
    }

    private static long apply(ReduceOp op, long a, long b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
        };
    }
}
