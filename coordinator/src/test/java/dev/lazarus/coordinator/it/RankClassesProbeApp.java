package dev.lazarus.coordinator.it;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes, on every rank, which class loaders its classes came from to {@code rank-classes-R.txt} in the directory its
 * one argument names: {@code own=}, {@code runtime=} and {@code bundled=}, the identities of the loaders of this
 * class (from {@code --classpath}), of the runtime's {@link Comm} and of a bundled NPB kernel; and {@code count=},
 * how many ranks this class's static field had counted once every rank had counted itself (one where the ranks'
 * statics are their own).
 */
public final class RankClassesProbeApp implements MpiApplication {
    /** Deliberately a mutable static: the probe of whether each rank has its own. */
    private static int ranksCounted;

    @Override
    public int run(Comm comm, String[] args) throws IOException, ClassNotFoundException {
        count();
        comm.barrier();
        ClassLoader rankLoader = Thread.currentThread().getContextClassLoader();
        Class<?> kernel = Class.forName("dev.lazarus.npb.is.IsKernel", false, rankLoader);
        Files.write(Path.of(args[0]).resolve("rank-classes-" + comm.rank() + ".txt"), List.of(
                "own=" + identity(RankClassesProbeApp.class.getClassLoader()),
                "runtime=" + identity(Comm.class.getClassLoader()),
                "bundled=" + identity(kernel.getClassLoader()),
                "count=" + counted()));
        return 0;
    }

    private static synchronized void count() {
        ranksCounted++;
    }

    private static synchronized int counted() {
        return ranksCounted;
    }

    private static String identity(ClassLoader loader) {
        return loader.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(loader));
    }
}
