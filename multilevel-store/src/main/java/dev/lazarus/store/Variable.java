package dev.lazarus.store;

import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * A named variable of a rank checkpoint: what the self-describing format records for each protected region.
 *
 * @param name  1 to 64 of {@code [A-Za-z0-9_.-]}; never used as a path
 * @param type  element type
 * @param shape dimensions, slowest first (row-major); 1 to {@value #MAX_DIMENSIONS} non-negative extents
 */
public record Variable(String name, ElementType type, long[] shape) {
    /** Most dimensions a variable may have. */
    public static final int MAX_DIMENSIONS = 8;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    public Variable {
        checkName(name);
        if (type == null) {
            throw new IllegalArgumentException("variable " + name + ": element type missing");
        }
        if (shape == null || shape.length == 0 || shape.length > MAX_DIMENSIONS) {
            throw new IllegalArgumentException("variable " + name + ": dimensions="
                    + (shape == null ? 0 : shape.length) + " must be 1 to " + MAX_DIMENSIONS);
        }
        shape = shape.clone();
        long elements = 1;
        for (long extent : shape) {
            if (extent < 0) {
                throw new IllegalArgumentException("variable " + name + ": extent=" + extent + " is negative");
            }
            elements = Math.multiplyExact(elements, extent);
        }
        Math.multiplyExact(elements, (long) type.size());
    }

    /** A one-dimensional variable of {@code length} elements. */
    public static Variable vector(String name, ElementType type, long length) {
        return new Variable(name, type, new long[] {length});
    }

    /** Validates a variable name; the message says which characters are allowed. */
    public static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("variable name '" + name + "' must be 1 to 64 of [A-Za-z0-9_.-]");
        }
    }

    /** @return a copy of the dimensions */
    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** @return number of elements: the product of the extents */
    public long elements() {
        long elements = 1;
        for (long extent : shape) {
            elements *= extent;
        }
        return elements;
    }

    /** @return size in bytes */
    public long byteSize() {
        return elements() * type.size();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Variable v && v.name.equals(name) && v.type == type && Arrays.equals(v.shape, shape);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(shape);
    }

    @Override
    public String toString() {
        return name + ":" + type + Arrays.toString(shape);
    }
}
