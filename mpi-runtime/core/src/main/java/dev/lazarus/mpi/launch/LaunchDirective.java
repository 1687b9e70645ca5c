package dev.lazarus.mpi.launch;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * What the coordinator tells the ranks of one launch: a small properties file, {@code directive} in the launch's
 * status directory ({@value ExitStatusFiles#ENV}), written before the launch starts. It says whether the ranks may
 * resume from NVM ({@code nvm=rollback}: set NVM aside and restore the newest checkpoint, or start from the beginning)
 * and why, the newest version the coordinator chose to restore ({@code restore=V}, or {@code restore=beginning}), and
 * what the coordinator estimates of the job (MTBF, recomputability R), which {@code
 * lazarus.ckpt.every=auto} plans the checkpoint interval with. Without a directive the ranks decide as they always
 * did; with one they still make their own checks (a damaged heap is never resumed, whatever the directive).
 *
 * @param rollBack        whether the ranks must not resume from NVM
 * @param reason          the coordinator's reason, for the ranks' log line
 * @param mtbfSeconds     the job's MTBF as the coordinator measured it, seconds; NaN before a failure was seen
 * @param recomputability the coordinator's estimate of R (plan and the job's NVM restarts); NaN when unknown
 * @param restoreAtMost   the newest checkpoint version the ranks may restore: the one the coordinator chose (an
 *                        older one if some rank cannot restore it), {@link #BEGINNING} for none, {@link #NEWEST} for
 *                        whatever is newest
 * @param l2Rebuild       whether a node that lost its L1 files rebuilds them from its L2 set; false when the
 *                        coordinator chose L3 over that rebuild (those ranks then read L3)
 */
public record LaunchDirective(boolean rollBack, String reason, double mtbfSeconds, double recomputability,
                              long restoreAtMost, boolean l2Rebuild) {
    /** The file name in the status directory. */
    public static final String FILE = "directive";
    /** {@link #restoreAtMost}: no version, start from the beginning. */
    public static final long BEGINNING = -1;
    /** {@link #restoreAtMost}: the newest version every rank can restore. */
    public static final long NEWEST = Long.MAX_VALUE;
    private static final int MAX_BYTES = 4096;

    /** @throws IllegalArgumentException for a bound below {@link #BEGINNING} */
    public LaunchDirective {
        if (restoreAtMost < BEGINNING) {
            throw new IllegalArgumentException("restore bound " + restoreAtMost);
        }
    }

    /** A directive without estimates, restoring the newest version. */
    public LaunchDirective(boolean rollBack, String reason) {
        this(rollBack, reason, Double.NaN, Double.NaN, NEWEST, true);
    }

    /** The directive that changes nothing. */
    public static LaunchDirective none() {
        return new LaunchDirective(false, "");
    }

    /** @return this directive carrying the coordinator's estimates (NaN: unknown) */
    public LaunchDirective withEstimates(double mtbf, double r) {
        return new LaunchDirective(rollBack, reason, mtbf, r, restoreAtMost, l2Rebuild);
    }

    /**
     * @param version   the newest version the ranks restore ({@link #BEGINNING}: none)
     * @param l2Rebuild whether a node that lost its L1 files rebuilds them from L2 (else its ranks read L3)
     * @return this directive with that restore
     */
    public LaunchDirective restoring(long version, boolean l2Rebuild) {
        return new LaunchDirective(rollBack, reason, mtbfSeconds, recomputability, version, l2Rebuild);
    }

    /** Writes {@code directive} into {@code dir} atomically, readable by the owner only. */
    public static void write(Path dir, LaunchDirective directive) throws IOException {
        Path tmp = Files.createTempFile(dir, FILE, ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        String reason = directive.reason().replace('\n', ' ');
        Files.writeString(tmp, "nvm=" + (directive.rollBack() ? "rollback" : "auto") + "\nreason=" + reason + "\n"
                + estimate("mtbf", directive.mtbfSeconds()) + estimate("recomputability", directive.recomputability())
                + (directive.restoreAtMost() == NEWEST ? "" : "restore=" + (directive.restoreAtMost() == BEGINNING
                        ? "beginning" : Long.toString(directive.restoreAtMost())) + "\n")
                + (directive.l2Rebuild() ? "" : "l2-rebuild=off\n"),
                StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The directive of the launch {@code environment} belongs to, or {@link #none()} when there is no status
     * directory or no directive in it.
     *
     * @throws IllegalArgumentException one line for a directive that is not one (too large, a link, an unknown value)
     */
    public static LaunchDirective of(Map<String, String> environment) {
        String dir = environment.get(ExitStatusFiles.ENV);
        if (dir == null || dir.isBlank()) {
            return none();
        }
        Path file = Path.of(dir).resolve(FILE);
        try {
            Optional<String> text = readBounded(file);
            if (text.isEmpty()) {
                return none();
            }
            Properties properties = new Properties();
            properties.load(new StringReader(text.get()));
            String nvm = properties.getProperty("nvm", "auto");
            if (!nvm.equals("auto") && !nvm.equals("rollback")) {
                throw new IllegalArgumentException("launch directive " + file + ": nvm=" + nvm
                        + " is neither auto nor rollback");
            }
            return new LaunchDirective(nvm.equals("rollback"), properties.getProperty("reason", ""),
                    estimate(properties, "mtbf", 1, Double.MAX_VALUE, file),
                    estimate(properties, "recomputability", 0, 1, file), restoreAtMost(properties, file),
                    l2Rebuild(properties, file));
        } catch (IOException e) {
            throw new IllegalArgumentException("launch directive " + file + ": " + e.getMessage());
        }
    }

    private static boolean l2Rebuild(Properties properties, Path file) {
        String text = properties.getProperty("l2-rebuild", "on");
        if (!text.equals("on") && !text.equals("off")) {
            throw new IllegalArgumentException("launch directive " + file + ": l2-rebuild=" + text
                    + " is neither on nor off");
        }
        return text.equals("on");
    }

    /** @return the restore bound, {@link #NEWEST} when absent; one line for one that is not a version */
    private static long restoreAtMost(Properties properties, Path file) {
        String text = properties.getProperty("restore");
        if (text == null) {
            return NEWEST;
        }
        if (text.equals("beginning")) {
            return BEGINNING;
        }
        try {
            long version = Long.parseLong(text);
            if (version >= 0 && version < NEWEST) {
                return version;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("launch directive " + file + ": restore=" + text
                + " is neither beginning nor a checkpoint version");
    }

    private static String estimate(String key, double value) {
        return Double.isFinite(value) ? key + "=" + value + "\n" : "";
    }

    /** @return the estimate, NaN when absent; one line for a value that is not a number in [min, max] */
    private static double estimate(Properties properties, String key, double min, double max, Path file) {
        String text = properties.getProperty(key);
        if (text == null) {
            return Double.NaN;
        }
        try {
            double value = Double.parseDouble(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("launch directive " + file + ": " + key + "=" + text
                + " is not a number from " + min + " to " + max);
    }

    private static Optional<String> readBounded(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > MAX_BYTES) {
            throw new IOException("not a regular file of at most " + MAX_BYTES + " bytes");
        }
        return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    }
}
