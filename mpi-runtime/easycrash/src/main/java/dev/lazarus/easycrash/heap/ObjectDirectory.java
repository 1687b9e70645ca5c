package dev.lazarus.easycrash.heap;

import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;
import net.openhft.compiler.CompilerUtils;

/**
 * Name to {@link ObjectDescriptor}, plus the application signature, in a persisted Chronicle Map beside the heap file.
 * A map that was open when the process died is opened with {@code recoverPersistedTo}, which repairs Chronicle's own
 * segment locks and checks entry checksums; every entry is then validated against the heap before anything uses it.
 */
public final class ObjectDirectory implements AutoCloseable {
    /** Key of the application signature entry; object names cannot start with '@'. */
    private static final String SIGNATURE_KEY = "@signature";
    private static final int MAX_ENTRIES = 1024;

    private final ChronicleMap<CharSequence, CharSequence> map;

    private ObjectDirectory(ChronicleMap<CharSequence, CharSequence> map) {
        this.map = map;
    }

    private static ChronicleMapBuilder<CharSequence, CharSequence> builder() {
        exposeClassPathToChronicleCompiler();
        return ChronicleMapBuilder.of(CharSequence.class, CharSequence.class)
                .name("lazarus-object-directory")
                .entries(MAX_ENTRIES)
                .averageKey("candidate-object-name")
                .averageValue("DOUBLE 1099511627776 2147483647 REINITIALIZED");
    }

    private static boolean classPathExposed;

    /**
     * Chronicle Map compiles generated classes at run time against {@code java.class.path}. Under MPJ Express's
     * multicore device each rank's classes come from a URLClassLoader instead, so Chronicle's compiler would not find
     * its own dependencies: hand it the loader's entries once.
     */
    private static synchronized void exposeClassPathToChronicleCompiler() {
        if (classPathExposed) {
            return;
        }
        classPathExposed = true;
        if (ObjectDirectory.class.getClassLoader() instanceof URLClassLoader loader) {
            for (URL url : loader.getURLs()) {
                if ("file".equals(url.getProtocol())) {
                    try {
                        CompilerUtils.addClassPath(Path.of(url.toURI()).toString());
                    } catch (URISyntaxException | IllegalArgumentException ignored) {
                        // Not a local file: nothing the compiler could read anyway.
                    }
                }
            }
        }
    }

    /**
     * Creates an empty directory file (replacing any), readable by the owner only. Chronicle creates the file with
     * the umask's mode; it lives in the job's 0700 directory, so nobody else can open it before the mode is set.
     * Chronicle opens by name and would follow a link, so a link at the name is refused first.
     *
     * @throws SecureFiles.NoRoomException if the file system cannot hold the directory; no file is left
     * @throws dev.lazarus.store.files.UnsafePathException if a symbolic link sits at {@code file}
     */
    public static ObjectDirectory create(Path file) throws IOException {
        SecureFiles.refuseLink(file);
        Files.deleteIfExists(file);
        ChronicleMap<CharSequence, CharSequence> map;
        try {
            map = builder().createPersistedTo(file.toFile());
        } catch (IOException e) {
            // Chronicle reserves its file's space (fallocate) and says so when it cannot: "Not enough space to ...".
            if (String.valueOf(e.getMessage()).contains("Not enough space")) {
                Files.deleteIfExists(file);
                throw new SecureFiles.NoRoomException("No space left on device");
            }
            throw e;
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return new ObjectDirectory(map);
    }

    /**
     * Recovers a directory left by a crashed run.
     *
     * @return the directory, or empty with the reason logged into {@code problem}
     * @throws dev.lazarus.store.files.UnsafePathException if a symbolic link sits at {@code file}: Chronicle opens
     *                                                    by name, and recovery writes into the file it opens
     */
    public static Optional<ObjectDirectory> recover(Path file, StringBuilder problem) throws IOException {
        SecureFiles.refuseLink(file);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            problem.append("object directory ").append(file).append(" is missing");
            return Optional.empty();
        }
        try {
            return Optional.of(new ObjectDirectory(builder().recoverPersistedTo(file.toFile(), true)));
        } catch (IOException | RuntimeException e) {
            problem.append("object directory ").append(file).append(" is corrupt: ").append(firstLine(e));
            return Optional.empty();
        }
    }

    private static String firstLine(Throwable e) {
        String text = String.valueOf(e.getMessage());
        int newline = text.indexOf('\n');
        return e.getClass().getSimpleName() + ": " + (newline < 0 ? text : text.substring(0, newline));
    }

    public void put(ObjectDescriptor descriptor) {
        map.put(descriptor.name(), descriptor.encode());
    }

    public Optional<ObjectDescriptor> get(String name) {
        CharSequence text = map.get(name);
        return text == null ? Optional.empty() : Optional.of(ObjectDescriptor.decode(name, text.toString()));
    }

    /** Every object, by offset. @throws IllegalArgumentException for a malformed entry */
    public List<ObjectDescriptor> objects() {
        List<ObjectDescriptor> objects = new ArrayList<>();
        map.forEach((key, value) -> {
            if (!SIGNATURE_KEY.contentEquals(key)) {
                objects.add(ObjectDescriptor.decode(key.toString(), value.toString()));
            }
        });
        objects.sort(Comparator.comparingLong(ObjectDescriptor::offset));
        return objects;
    }

    /** What application (and arguments) created the heap: a restart of anything else must not reuse it. */
    public Optional<String> signature() {
        CharSequence text = map.get(SIGNATURE_KEY);
        return text == null ? Optional.empty() : Optional.of(text.toString());
    }

    public void signature(String signature) {
        map.put(SIGNATURE_KEY, signature);
    }

    @Override
    public void close() {
        map.close();
    }
}
