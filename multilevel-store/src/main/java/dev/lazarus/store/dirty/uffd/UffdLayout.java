package dev.lazarus.store.dirty.uffd;

/**
 * The userfaultfd ABI this scanner uses ({@code include/uapi/linux/userfaultfd.h}, Linux 6.7+ on x86_64): the ioctl
 * argument structs, their request numbers and the feature and mode bits. Every field is a little-endian
 * {@code __u64}.
 *
 * <pre>
 *  struct uffdio_api            (24 bytes, UFFDIO_API = _IOWR(0xAA, 0x3F, 24) = 0xC018AA3F)
 *  offset  size  field
 *       0     8  api        in:  UFFD_API (0xAA)
 *       8     8  features   in:  features to enable; out: every feature the kernel offers
 *      16     8  ioctls     out: bitmask of the ioctls the fd accepts
 *
 *  struct uffdio_register       (32 bytes, UFFDIO_REGISTER = _IOWR(0xAA, 0x00, 32) = 0xC020AA00)
 *       0     8  range.start  page aligned address
 *       8     8  range.len    multiple of the page size
 *      16     8  mode         in:  UFFDIO_REGISTER_MODE_WP (2)
 *      24     8  ioctls       out: bitmask of the range ioctls now allowed (bit 6 = UFFDIO_WRITEPROTECT)
 *
 *  struct uffdio_writeprotect   (24 bytes, UFFDIO_WRITEPROTECT = _IOWR(0xAA, 0x06, 24) = 0xC018AA06)
 *       0     8  range.start
 *       8     8  range.len
 *      16     8  mode         UFFDIO_WRITEPROTECT_MODE_WP (1) protects, 0 unprotects
 *
 *  struct uffdio_range          (16 bytes, UFFDIO_UNREGISTER = _IOR(0xAA, 0x01, 16) = 0x8010AA01)
 *       0     8  start
 *       8     8  len
 * </pre>
 */
final class UffdLayout {
    static final long UFFD_API = 0xAA;

    /** Write faults on protected pages are resolved by the kernel, which just clears the page's uffd-wp bit. */
    static final long UFFD_FEATURE_WP_ASYNC = 1L << 15;
    /** Pages never touched (no page table entry yet) are protected too, by markers in their empty entries. */
    static final long UFFD_FEATURE_WP_UNPOPULATED = 1L << 13;
    /**
     * Since Linux 5.11: only user-mode faults are delivered, which lets processes without CAP_SYS_PTRACE open a
     * userfaultfd when {@code vm.unprivileged_userfaultfd} is 0. Asynchronous write faults are never delivered, so
     * kernel-mode writes (e.g. {@code read(2)} into a tracked page) are still resolved and counted.
     */
    static final int UFFD_USER_MODE_ONLY = 1;

    static final long UFFDIO_REGISTER_MODE_WP = 1L << 1;
    static final long UFFDIO_WRITEPROTECT_MODE_WP = 1L << 0;
    /** Bit of {@code uffdio_register.ioctls} that says UFFDIO_WRITEPROTECT is allowed on the range. */
    static final long IOCTL_WRITEPROTECT_BIT = 1L << 0x06;

    static final long API_SIZE = 24;
    static final long API_API = 0;
    static final long API_FEATURES = 8;
    static final long API_IOCTLS = 16;

    static final long REGISTER_SIZE = 32;
    static final long REGISTER_START = 0;
    static final long REGISTER_LEN = 8;
    static final long REGISTER_MODE = 16;
    static final long REGISTER_IOCTLS = 24;

    static final long WRITEPROTECT_SIZE = 24;
    static final long WRITEPROTECT_START = 0;
    static final long WRITEPROTECT_LEN = 8;
    static final long WRITEPROTECT_MODE = 16;

    static final long RANGE_SIZE = 16;
    static final long RANGE_START = 0;
    static final long RANGE_LEN = 8;

    private static final int UFFDIO = 0xAA;
    static final long UFFDIO_API = Ioctl.readWrite(UFFDIO, 0x3F, API_SIZE);
    static final long UFFDIO_REGISTER = Ioctl.readWrite(UFFDIO, 0x00, REGISTER_SIZE);
    static final long UFFDIO_UNREGISTER = Ioctl.read(UFFDIO, 0x01, RANGE_SIZE);
    static final long UFFDIO_WRITEPROTECT = Ioctl.readWrite(UFFDIO, 0x06, WRITEPROTECT_SIZE);

    private UffdLayout() {
    }
}
