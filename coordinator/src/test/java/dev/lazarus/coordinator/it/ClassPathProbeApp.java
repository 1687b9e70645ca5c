package dev.lazarus.coordinator.it;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes, on every rank, each entry its classes can be loaded from, one per line, to {@code class-path-rank-R.txt}
 * in the directory its one argument names: the JVM's class path, then the URLs of every {@link URLClassLoader}
 * between this class's loader and the system one (MPJ Express loads a rank's classes through its own). A launcher
 * that adds an entry behind Lazarus's back shows here. A file, not standard output: mpirun forwards the ranks' output
 * in chunks, and two ranks' lists of some 4 KB each were interleaved in the middle of a line.
 */
public final class ClassPathProbeApp implements MpiApplication {
    @Override
    public int run(Comm comm, String[] args) throws URISyntaxException, IOException {
        List<String> entries = new ArrayList<>(List.of(System.getProperty("java.class.path").split(":")));
        for (ClassLoader loader = getClass().getClassLoader(); loader != null; loader = loader.getParent()) {
            if (loader instanceof URLClassLoader urls) {
                for (URL url : urls.getURLs()) {
                    entries.add(url.getProtocol().equals("file") ? Path.of(url.toURI()).toString() : url.toString());
                }
            }
        }
        Files.write(Path.of(args[0]).resolve("class-path-rank-" + comm.rank() + ".txt"), entries);
        return 0;
    }
}
