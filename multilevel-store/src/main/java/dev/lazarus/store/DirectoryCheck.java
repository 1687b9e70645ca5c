package dev.lazarus.store;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks a directory a user named (a level root, the NVM directory, an output directory) before anything is created,
 * so that a path under a regular file or a file where a directory belongs is one line of bad input, not a failure
 * deep inside a rank or a run that silently goes without the level.
 */
public final class DirectoryCheck {
    private DirectoryCheck() {
    }

    /**
     * @param what how the user named the path, e.g. {@code --nvm-dir}
     * @param dir  a directory that exists or can be created with its missing parents
     * @return {@code dir}
     * @throws IllegalArgumentException one line naming the path and the component that is not a directory
     */
    public static Path creatable(String what, Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        for (Path p = absolute; p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new IllegalArgumentException(what + " " + dir + ": " + (p.equals(absolute) ? "" : p + " ")
                            + "is not a directory");
                }
                return dir;
            }
            if (Files.isSymbolicLink(p)) {
                throw new IllegalArgumentException(what + " " + dir + ": " + p + " is a dangling link");
            }
        }
        return dir;
    }

    /**
     * @param what how the user named the path, e.g. {@code --l1}
     * @param dir  a directory that must exist
     * @return {@code dir}
     * @throws IllegalArgumentException one line if it is missing or not a directory
     */
    public static Path existing(String what, Path dir) {
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException(what + " " + dir + ": no such directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(what + " " + dir + ": not a directory");
        }
        return dir;
    }
}
