package dev.lazarus.store.dirty.uffd;

/**
 * Linux ioctl request numbers, built like the {@code _IOR}/{@code _IOWR} macros of
 * {@code include/uapi/asm-generic/ioctl.h} (x86_64 uses the generic encoding).
 *
 * <pre>
 *   bit  31..30     29..16         15..8   7..0
 *       direction  argument size  type    number
 *       (2 = read, 3 = read and write: "read" means the kernel writes to the caller's struct)
 * </pre>
 */
final class Ioctl {
    private static final long READ = 2;
    private static final long READ_WRITE = 3;

    private Ioctl() {
    }

    /** {@code _IOR(type, number, size)}. */
    static long read(int type, int number, long size) {
        return encode(READ, type, number, size);
    }

    /** {@code _IOWR(type, number, size)}. */
    static long readWrite(int type, int number, long size) {
        return encode(READ_WRITE, type, number, size);
    }

    private static long encode(long direction, int type, int number, long size) {
        return direction << 30 | size << 16 | (long) type << 8 | number;
    }
}
