package dev.lazarus.store.level.xor;

/** Range arithmetic shared by the {@link PayloadSource} implementations. */
public final class PayloadSources {
    private PayloadSources() {
    }

    /**
     * @return how many of {@code length} bytes from {@code position} lie before {@code size}, never negative
     * @throws IllegalArgumentException if {@code position} or {@code length} is negative
     */
    public static long realLength(long size, long position, long length) {
        if (position < 0 || length < 0) {
            throw new IllegalArgumentException("negative read range: position=" + position + " length=" + length);
        }
        return Math.max(0, Math.min(length, size - position));
    }
}
