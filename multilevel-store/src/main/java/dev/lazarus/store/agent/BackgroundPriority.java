package dev.lazarus.store.agent;

import dev.lazarus.store.NativeLibc;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Lowers the calling thread to background priority on Linux: CPU niceness 19 (setpriority on the thread's id) and
 * the idle I/O class (ioprio_set), so that a checkpointing core's copies yield to the ranks' computation and I/O.
 * Java has no API for either; both are system calls through FFM.
 */
public final class BackgroundPriority {
    /** x86_64 system call numbers; glibc's ioprio_set has no wrapper. */
    private static final long SYS_GETTID = 186;
    private static final long SYS_IOPRIO_SET = 251;
    private static final int PRIO_PROCESS = 0;
    private static final int NICENESS = 19;
    private static final int IOPRIO_WHO_PROCESS = 1;
    private static final int IOPRIO_CLASS_IDLE = 3;
    private static final int IOPRIO_CLASS_SHIFT = 13;

    private BackgroundPriority() {
    }

    /**
     * Applies both to the calling thread.
     *
     * @return one line saying what was applied, or why not (another platform, a refused call)
     */
    public static String lowerCurrentThread() {
        if (!"amd64".equals(System.getProperty("os.arch")) || !System.getProperty("os.name").startsWith("Linux")) {
            return "normal priority (background priority needs Linux on x86_64)";
        }
        try {
            MethodHandle syscall = NativeLibc.downcall("syscall", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                    Linker.Option.firstVariadicArg(1));
            MethodHandle setpriority = NativeLibc.downcall("setpriority", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            long tid = (long) syscall.invokeExact(SYS_GETTID, 0L, 0L, 0L);
            int nice = (int) setpriority.invokeExact(PRIO_PROCESS, (int) tid, NICENESS);
            long io = (long) syscall.invokeExact(SYS_IOPRIO_SET, (long) IOPRIO_WHO_PROCESS, tid,
                    (long) (IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT));
            return "thread " + tid + ": " + (nice == 0 ? "nice " + NICENESS : "nice refused")
                    + (io == 0 ? ", idle I/O class" : ", I/O class refused");
        } catch (Throwable e) {
            return "normal priority (" + e.getMessage() + ")";
        }
    }
}
