package dev.lazarus.store.files;

import dev.lazarus.store.NativeLibc;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * The libc calls Java has no API for that {@link SecureFiles} needs: open(2) for a file descriptor, posix_fallocate(3)
 * to reserve a file's space, fcntl(2) leases to learn whether anyone else has a file open, and strerror(3). Loaded
 * only when first used, so the JVMs that never do (the CLI) need no native access.
 */
final class NativeFiles {
    // open(2) flags as Linux defines them on x86_64 (O_NOFOLLOW differs on some other architectures).
    private static final int O_RDONLY = 0x0;
    private static final int O_RDWR = 0x2;
    private static final int O_CREAT = 0x40;
    private static final int O_EXCL = 0x80;
    private static final int O_NOFOLLOW = 0x20000;
    private static final int O_CLOEXEC = 0x80000;
    private static final int MODE_0600 = 0600;
    // fcntl(2) lease commands (F_LINUX_SPECIFIC_BASE + 0) and lease types.
    private static final int F_SETLEASE = 1024;
    private static final int F_WRLCK = 1;
    private static final int F_UNLCK = 2;
    /** Error numbers that mean the file system (or the user's quota) has no room. */
    static final int ENOSPC = 28;
    static final int EDQUOT = 122;
    /** strerror's texts are short; this bounds the read of the C string. */
    private static final long MAX_ERROR_TEXT = 256;

    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final VarHandle ERRNO_HANDLE = Linker.Option.captureStateLayout()
            .varHandle(MemoryLayout.PathElement.groupElement("errno"));
    // int open(const char *path, int flags, ...): the mode is the variadic part.
    private static final MethodHandle OPEN = NativeLibc.downcall("open",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2), ERRNO);
    // int posix_fallocate(int fd, off_t offset, off_t len): returns the error number, errno is not set.
    private static final MethodHandle FALLOCATE = NativeLibc.downcall("posix_fallocate",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG));
    // int fcntl(int fd, int cmd, ...): the lease type is the variadic part.
    private static final MethodHandle FCNTL = NativeLibc.downcall("fcntl",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = NativeLibc.downcall("close",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle STRERROR = NativeLibc.downcall("strerror",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private NativeFiles() {
    }

    /**
     * Creates {@code file} (0600, O_EXCL, O_NOFOLLOW) and reserves {@code bytes} for it.
     *
     * @return 0, or the error number of posix_fallocate (the file then exists, possibly shorter)
     * @throws IOException if the file cannot be created
     */
    static int createAndReserve(Path file, long bytes) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(Linker.Option.captureStateLayout());
            int fd = (int) OPEN.invokeExact(capture, arena.allocateFrom(file.toString()),
                    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, MODE_0600);
            if (fd < 0) {
                int errno = (int) ERRNO_HANDLE.get(capture, 0L);
                throw new IOException(file + ": cannot create: " + strerror(errno));
            }
            try {
                return (int) FALLOCATE.invokeExact(fd, 0L, bytes);
            } finally {
                int ignored = (int) CLOSE.invokeExact(fd); // nothing was written through it: nothing to lose
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("libc downcall failed", t);
        }
    }

    /**
     * Whether no other open file description, in any process, refers to {@code file}: a write lease (fcntl
     * F_SETLEASE) is granted only then, and is released at once. False too where leases are refused for other
     * reasons (not the file's owner, leases disabled, not a regular file) or the file cannot be opened.
     */
    static boolean unopenedElsewhere(Path file) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(Linker.Option.captureStateLayout());
            int fd = (int) OPEN.invokeExact(capture, arena.allocateFrom(file.toString()),
                    O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
            if (fd < 0) {
                return false;
            }
            try {
                if ((int) FCNTL.invokeExact(fd, F_SETLEASE, F_WRLCK) != 0) {
                    return false;
                }
                int ignored = (int) FCNTL.invokeExact(fd, F_SETLEASE, F_UNLCK);
                return true;
            } finally {
                int ignored = (int) CLOSE.invokeExact(fd);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("libc downcall failed", t);
        }
    }

    /** @return the C library's text for an error number, e.g. "No space left on device" */
    @SuppressWarnings("restricted") // native access is granted with --enable-native-access=ALL-UNNAMED
    static String strerror(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(MAX_ERROR_TEXT).getString(0);
        } catch (Throwable t) {
            return "errno=" + errno;
        }
    }
}
