package dev.lazarus.coordinator.state;

import dev.lazarus.store.JobId;
import dev.lazarus.store.files.SecureFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A job's recovery state on disk, one JSON file per entry: {@code <root>/<job>/<map>/<key>.json}, directories 0700
 * and files 0600, each written atomically. It is what the coordinator's Hazelcast maps store through and load from
 * ({@link JsonFileMapStore}), so a requeued job, in a new allocation, starts with its catalog and history, and what
 * {@code lazarus status} reads. Map names and keys are checked against one pattern both ways: a file whose name does
 * not match is never loaded, and no key can name a path outside its map's directory.
 */
public final class StateFiles {
    /** The most one entry may hold; a larger file is corrupt. */
    public static final int MAX_ENTRY_BYTES = 1 << 20;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");
    private static final String SUFFIX = ".json";

    private final Path jobDirectory;

    /**
     * @param root the state directory ({@code --state-dir})
     * @param job  the job id, checked
     */
    public StateFiles(Path root, String job) {
        this.jobDirectory = root.resolve(JobId.check(job));
    }

    /** @return the job's directory */
    public Path jobDirectory() {
        return jobDirectory;
    }

    /** Writes one entry atomically (the map's directory is made 0700 when missing). */
    public void put(String map, String key, String json) throws IOException {
        Path directory = SecureFiles.createDirectories(mapDirectory(map));
        SecureFiles.writeAtomically(directory.resolve(file(key)), json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @return the entry, or empty when there is none
     * @throws IOException for an entry that cannot be read or exceeds {@link #MAX_ENTRY_BYTES} (the message names it)
     */
    public Optional<String> get(String map, String key) throws IOException {
        try {
            byte[] bytes = SecureFiles.readBounded(mapDirectory(map).resolve(file(key)), MAX_ENTRY_BYTES);
            return Optional.of(new String(bytes, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** Deletes one entry; a missing one is fine. */
    public void delete(String map, String key) throws IOException {
        Files.deleteIfExists(mapDirectory(map).resolve(file(key)));
    }

    /** @return the keys of the map's entries, sorted: regular files with a valid name only */
    public SortedSet<String> keys(String map) throws IOException {
        SortedSet<String> keys = new TreeSet<>();
        Path directory = mapDirectory(map);
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return keys;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (name.endsWith(SUFFIX) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    String key = name.substring(0, name.length() - SUFFIX.length());
                    if (NAME.matcher(key).matches()) {
                        keys.add(key);
                    }
                }
            }
        }
        return keys;
    }

    private Path mapDirectory(String map) {
        return jobDirectory.resolve(checked("map", map));
    }

    private static String file(String key) {
        return checked("key", key) + SUFFIX;
    }

    private static String checked(String what, String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("state " + what + " '" + name + "' is not 1-128 of [A-Za-z0-9._-]"
                    + " starting with a letter, digit or _");
        }
        return name;
    }
}
