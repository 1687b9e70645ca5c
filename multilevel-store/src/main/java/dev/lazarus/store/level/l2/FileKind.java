package dev.lazarus.store.level.l2;

/** Which of a rank's two checkpoint files a payload part is; the code is stored in tables and manifests. */
public enum FileKind {
    /** {@code rank-N.manifest}: first in the payload, published last when rebuilt. */
    MANIFEST(0),
    /** {@code rank-N.data}. */
    DATA(1);

    private final int code;

    FileKind(int code) {
        this.code = code;
    }

    /** @return the byte stored for this kind */
    public int code() {
        return code;
    }

    /**
     * @return the kind stored as {@code code}
     * @throws IllegalArgumentException if no kind has it
     */
    public static FileKind ofCode(int code) {
        for (FileKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        throw new IllegalArgumentException("file kind=" + code + " unknown");
    }
}
