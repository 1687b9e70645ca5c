package dev.lazarus.coordinator.launch;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The syntax of an Open MPI host file, checked before {@code mpirun} starts: mpirun's own parser answers a bad file
 * with several lines of its text ("input in flex scanner failed") and a status of its own.
 *
 * <p>A line is blank, a {@code #} comment, or {@code [user@]host [key=N ...]} with an optional trailing comment, where
 * the keys are those Open MPI 4.1's host file parser knows.
 */
public final class HostsFile {
    /** Larger than any host file of a real machine list; bounds what is read. */
    static final long MAX_BYTES = 1 << 20;

    private static final Pattern HOST = Pattern.compile("([A-Za-z0-9_.-]+@)?[A-Za-z0-9][A-Za-z0-9_.:-]*");
    private static final Pattern COUNT = Pattern.compile("[0-9]{1,6}");
    private static final Set<String> KEYS = Set.of("slots", "slot", "count", "cpu", "cpus", "max_slots", "max-slots",
            "slots_max", "slots-max", "max_cpus", "max-cpus", "boards", "sockets", "cores", "port");

    private HostsFile() {
    }

    /**
     * One host of a host file.
     *
     * @param host     the host's name or address (without {@code user@})
     * @param line     the line without its comment, as mpirun reads it: {@code [user@]host [key=N ...]}
     */
    public record Entry(String host, String line) {
        /** @return {@code spare} in this entry's place: the spare's {@code [user@]host}, this entry's settings */
        public Entry replacedBy(Entry spare) {
            String[] words = line.split("\\s+", 2);
            String spareHost = spare.line().split("\\s+", 2)[0];
            return new Entry(spare.host(), words.length == 1 ? spareHost : spareHost + " " + words[1]);
        }
    }

    /**
     * @param file the {@code --hosts} file
     * @return the hosts it names, in order (without {@code user@})
     * @throws IllegalArgumentException one line naming the file, and the line that is wrong
     */
    public static List<String> hosts(Path file) {
        return entries(file, "--hosts").stream().map(Entry::host).toList();
    }

    /**
     * @param file   a host file
     * @param option the option that named it, for errors ({@code --hosts}, {@code --spares})
     * @return its hosts, in order
     * @throws IllegalArgumentException one line naming the option, the file, and the line that is wrong
     */
    public static List<Entry> entries(Path file, String option) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(option + " " + file + ": " + (Files.isDirectory(file)
                    ? "is a directory" : Files.exists(file) ? "not a regular file" : "no such file"));
        }
        List<String> lines;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new IllegalArgumentException(option + " " + file + ": larger than " + MAX_BYTES + " bytes");
            }
            lines = List.of(StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(
                    Files.readAllBytes(file))).toString().split("\n", -1));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(option + " " + file + ": not a text file");
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + ": cannot read: " + e.getMessage());
        }
        List<Entry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String content = (hash >= 0 ? line.substring(0, hash) : line).strip();
            String[] words = content.split("\\s+");
            if (words[0].isEmpty()) {
                continue;
            }
            String problem = problem(words);
            if (problem != null) {
                throw new IllegalArgumentException(option + " " + file + " line " + (i + 1) + ": " + problem
                        + " (expected: host [slots=N] ...)");
            }
            entries.add(new Entry(words[0].substring(words[0].indexOf('@') + 1), String.join(" ", words)));
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(option + " " + file + ": names no host");
        }
        return List.copyOf(entries);
    }

    /** @return what is wrong with a line's words, or null */
    private static String problem(String[] words) {
        if (!HOST.matcher(words[0]).matches()) {
            return "'" + printable(words[0]) + "' is not a host name";
        }
        for (int w = 1; w < words.length; w++) {
            int equals = words[w].indexOf('=');
            String key = equals > 0 ? words[w].substring(0, equals) : words[w];
            if (equals < 0 || !KEYS.contains(key) || !COUNT.matcher(words[w].substring(equals + 1)).matches()) {
                return "'" + printable(words[w]) + "' is not a key=N setting Open MPI knows";
            }
        }
        return null;
    }

    /** Keeps control characters of a garbage file out of the terminal. */
    private static String printable(String word) {
        String cut = word.length() > 40 ? word.substring(0, 40) + "..." : word;
        return cut.replaceAll("\\P{Print}", "?");
    }
}
