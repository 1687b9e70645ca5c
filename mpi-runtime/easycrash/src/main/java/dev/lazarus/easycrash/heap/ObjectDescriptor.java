package dev.lazarus.easycrash.heap;

import dev.lazarus.mpi.ElementType;

import java.util.regex.Pattern;

/**
 * Where a named data object lives in the heap file. Stored in the object directory as one line of text, parsed back
 * with every field bounded, because after a crash the directory is untrusted input.
 *
 * @param name       the object's name: 1 to 64 of {@code [A-Za-z0-9_.-]}; never used as a path
 * @param type       element type
 * @param offset     byte offset in the heap file, page aligned
 * @param length     number of elements
 * @param candidate  a candidate critical object (kept across a crash), else re-initialized by the application (a
 *                   temporary or read-only object too, in a campaign's heap); the directory spells it as EasyCrash's
 *                   role names, {@value #CANDIDATE} or {@value #REINITIALIZED}
 */
public record ObjectDescriptor(String name, ElementType type, long offset, int length, boolean candidate) {
    /** The directory's word for a candidate object (EasyCrash's {@code ObjectRole.CANDIDATE}). */
    public static final String CANDIDATE = "CANDIDATE";
    /** The directory's word for a re-initialized object (EasyCrash's {@code ObjectRole.REINITIALIZED}). */
    public static final String REINITIALIZED = "REINITIALIZED";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    public ObjectDescriptor {
        checkName(name);
        if (length < 0) {
            throw new IllegalArgumentException("object " + name + ": length=" + length + " must not be negative");
        }
    }

    /** Validates an object name; the message says which characters are allowed. */
    public static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("object name '" + name + "' must be 1 to 64 of [A-Za-z0-9_.-]");
        }
    }

    /** Size in bytes. */
    public long byteSize() {
        return type.bytes(length);
    }

    /** The directory's text form: {@code type offset length role}. */
    public String encode() {
        return type + " " + offset + " " + length + " " + (candidate ? CANDIDATE : REINITIALIZED);
    }

    /**
     * Parses {@link #encode()}'s form.
     *
     * @throws IllegalArgumentException with the name and the bad field
     */
    public static ObjectDescriptor decode(String name, String text) {
        String[] fields = text == null ? new String[0] : text.split(" ");
        if (fields.length != 4) {
            throw new IllegalArgumentException("object " + name + ": malformed directory entry '" + text + "'");
        }
        try {
            return new ObjectDescriptor(name, ElementType.valueOf(fields[0]), Long.parseLong(fields[1]),
                    Integer.parseInt(fields[2]), candidate(fields[3]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("object " + name + ": malformed directory entry '" + text + "': "
                    + e.getMessage());
        }
    }

    private static boolean candidate(String role) {
        return switch (role) {
            case CANDIDATE -> true;
            case REINITIALIZED -> false;
            default -> throw new IllegalArgumentException("role " + role + " must be " + CANDIDATE + " or "
                    + REINITIALIZED);
        };
    }
}
