package dev.lazarus.store;

/**
 * Element type of a checkpointed variable, as recorded in the self-describing rank checkpoint. The code is the byte
 * stored in the manifest; it never changes once released.
 */
public enum ElementType {
    BYTE(1, 1),
    INT(2, 4),
    LONG(3, 8),
    FLOAT(4, 4),
    DOUBLE(5, 8);

    private final int code;
    private final int size;

    ElementType(int code, int size) {
        this.code = code;
        this.size = size;
    }

    /** @return the byte stored in manifests */
    public int code() {
        return code;
    }

    /** @return bytes per element */
    public int size() {
        return size;
    }

    /**
     * @return the type stored as {@code code}
     * @throws IllegalArgumentException for an unknown code
     */
    public static ElementType ofCode(int code) {
        for (ElementType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown element type code=" + code);
    }
}
