package dev.lazarus.store.dirty.uffd;

import static dev.lazarus.store.NativeLibc.downcall;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc calls the userfaultfd scanner needs, as FFM downcalls that capture {@code errno}. Each call takes a
 * caller-owned capture segment ({@link #allocateCapture}) so that reading errno allocates nothing once compiled; the
 * scan's hot path uses {@link #ioctlWithoutErrno}, which allocates nothing from its first call on.
 */
final class Libc {
    /** x86_64 system call number of userfaultfd(2); glibc has no wrapper. */
    static final long SYS_USERFAULTFD = 323;

    static final int O_RDONLY = 0;
    static final int O_NONBLOCK = 0x800;
    static final int O_CLOEXEC = 0x80000;

    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int ENOMEM = 12;
    static final int EINVAL = 22;

    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final VarHandle ERRNO_HANDLE = Linker.Option.captureStateLayout()
            .varHandle(MemoryLayout.PathElement.groupElement("errno"));

    // long syscall(long number, ...): the variadic part starts at the second argument.
    private static final MethodHandle SYSCALL = downcall("syscall",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
            Linker.Option.firstVariadicArg(1), ERRNO);
    // int ioctl(int fd, unsigned long request, ...): every request here passes one struct pointer.
    private static final MethodHandle IOCTL = downcall("ioctl",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS),
            Linker.Option.firstVariadicArg(2), ERRNO);
    // The same ioctl without errno, for the scan on the hot path: capturing errno costs the JDK's downcall adapter
    // 40 bytes per call until C2 compiles the caller and its escape analysis removes them. Under CPU load that can be
    // long after the caller became hot, so a call that must allocate nothing cannot capture errno.
    private static final MethodHandle IOCTL_NO_ERRNO = downcall("ioctl",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS),
            Linker.Option.firstVariadicArg(2));
    // int open(const char *path, int flags, ...): no mode, as nothing is created.
    private static final MethodHandle OPEN = downcall("open",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
            Linker.Option.firstVariadicArg(2), ERRNO);
    private static final MethodHandle CLOSE = downcall("close",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), ERRNO);

    private Libc() {
    }

    /** @return a segment to pass as {@code capture} to the calls of this class */
    static MemorySegment allocateCapture(Arena arena) {
        return arena.allocate(Linker.Option.captureStateLayout());
    }

    /** @return the errno saved by the last failed call that used {@code capture} */
    static int errno(MemorySegment capture) {
        return (int) ERRNO_HANDLE.get(capture, 0L);
    }

    /** @return the new file descriptor, or -1 with errno in {@code capture} */
    static int userfaultfd(MemorySegment capture, int flags) {
        try {
            return (int) (long) SYSCALL.invokeExact(capture, SYS_USERFAULTFD, (long) flags);
        } catch (Throwable t) {
            throw new AssertionError("syscall downcall failed", t);
        }
    }

    /** @return the ioctl's result, or -1 with errno in {@code capture} */
    static int ioctl(MemorySegment capture, int fd, long request, MemorySegment argument) {
        try {
            return (int) IOCTL.invokeExact(capture, fd, request, argument);
        } catch (Throwable t) {
            throw new AssertionError("ioctl downcall failed", t);
        }
    }

    /**
     * {@link #ioctl} without errno, for calls that must allocate nothing whether interpreted or compiled. A caller that
     * needs to know why a call failed repeats it with {@link #ioctl}.
     *
     * @return the ioctl's result, or -1
     */
    static int ioctlWithoutErrno(int fd, long request, MemorySegment argument) {
        try {
            return (int) IOCTL_NO_ERRNO.invokeExact(fd, request, argument);
        } catch (Throwable t) {
            throw new AssertionError("ioctl downcall failed", t);
        }
    }

    /** @return the new file descriptor, or -1 with errno in {@code capture} */
    static int open(MemorySegment capture, String path, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) OPEN.invokeExact(capture, arena.allocateFrom(path), flags);
        } catch (Throwable t) {
            throw new AssertionError("open downcall failed", t);
        }
    }

    /** @return 0, or -1 with errno in {@code capture} */
    static int close(MemorySegment capture, int fd) {
        try {
            return (int) CLOSE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw new AssertionError("close downcall failed", t);
        }
    }

    /** @return e.g. {@code "errno=22 (EINVAL)"}, for exception messages */
    static String describe(int errno) {
        String name = switch (errno) {
            case EPERM -> "EPERM";
            case 2 -> "ENOENT";
            case EINTR -> "EINTR";
            case 9 -> "EBADF";
            case ENOMEM -> "ENOMEM";
            case 13 -> "EACCES";
            case 14 -> "EFAULT";
            case 16 -> "EBUSY";
            case EINVAL -> "EINVAL";
            case 25 -> "ENOTTY";
            case 38 -> "ENOSYS";
            case 95 -> "EOPNOTSUPP";
            default -> "?";
        };
        return "errno=" + errno + " (" + name + ")";
    }
}
