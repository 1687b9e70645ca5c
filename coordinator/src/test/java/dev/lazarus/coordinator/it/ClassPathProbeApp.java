package dev.lazarus.coordinator.it;

import dev.lazarus.mpi.Comm;
import dev.lazarus.mpi.MpiApplication;

import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints, on every rank, each entry its classes can be loaded from: {@code class path entry: PATH} for the JVM's
 * class path and for the URLs of every {@link URLClassLoader} between this class's loader and the system one (MPJ
 * Express loads a rank's classes through its own). A launcher that adds an entry behind Lazarus's back shows here.
 */
public final class ClassPathProbeApp implements MpiApplication {
    @Override
    public int run(Comm comm, String[] args) throws URISyntaxException {
        List<String> entries = new ArrayList<>(List.of(System.getProperty("java.class.path").split(":")));
        for (ClassLoader loader = getClass().getClassLoader(); loader != null; loader = loader.getParent()) {
            if (loader instanceof URLClassLoader urls) {
                for (URL url : urls.getURLs()) {
                    entries.add(url.getProtocol().equals("file") ? Path.of(url.toURI()).toString() : url.toString());
                }
            }
        }
        StringBuilder out = new StringBuilder();
        for (String entry : entries) {
            out.append("rank ").append(comm.rank()).append(" class path entry: ").append(entry).append('\n');
        }
        System.out.print(out);
        return 0;
    }
}
