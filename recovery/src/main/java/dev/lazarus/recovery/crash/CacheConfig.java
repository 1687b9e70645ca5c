package dev.lazarus.recovery.crash;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulated cache hierarchy: levels from L1 down to the last level, each a size and an associativity, and one
 * line size for all levels. The constructor validates everything; {@link #parse} reads the command-line form.
 *
 * <p>A level has {@code floor(size / (lineSize * ways))} sets. Set counts need not be powers of two (the paper's
 * 19.25 MiB 11-way L3 has 28672 sets), and a size that does not divide evenly keeps the whole sets only: the paper's
 * 1 MiB 12-way L2 has 1365 sets, 256 bytes short of 1 MiB.
 *
 * @param levels   L1 first; every level must hold at least as many lines as the level above it, because the model
 *                 is inclusive (see {@link CacheModel})
 * @param lineSize bytes per cache line, a power of two from 8 to 4096 (64 on every machine we model)
 */
public record CacheConfig(List<Level> levels, int lineSize) {
    /** The line size of every x86 machine we model. */
    public static final int DEFAULT_LINE_SIZE = 64;

    /** Arrays of tags and ages are indexed by int; this bound keeps every level well inside that. */
    private static final long MAX_LINES = 1L << 30;

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)([KMG]?)", Pattern.CASE_INSENSITIVE);

    /**
     * One cache level.
     *
     * @param sizeBytes     capacity in bytes
     * @param associativity ways per set
     */
    public record Level(long sizeBytes, int associativity) {
        /** Number of sets with lines of {@code lineSize} bytes (whole sets only). */
        public long sets(int lineSize) {
            return sizeBytes / ((long) lineSize * associativity);
        }
    }

    /**
     * Validates the hierarchy.
     *
     * @throws IllegalArgumentException one line naming the level and the value at fault
     */
    public CacheConfig {
        if (levels == null || levels.isEmpty()) {
            throw new IllegalArgumentException("cache config needs at least one level");
        }
        levels = List.copyOf(levels);
        if (lineSize < 8 || lineSize > 4096 || Integer.bitCount(lineSize) != 1) {
            throw new IllegalArgumentException("cache lineSize=" + lineSize + " must be a power of two from 8 to 4096");
        }
        long linesAbove = 0;
        for (int i = 0; i < levels.size(); i++) {
            Level level = levels.get(i);
            String where = "cache level L" + (i + 1) + " (size=" + level.sizeBytes() + ", ways="
                    + level.associativity() + ")";
            if (level.associativity() <= 0) {
                throw new IllegalArgumentException(where + ": ways must be positive");
            }
            if (level.sizeBytes() <= 0 || level.sizeBytes() % lineSize != 0) {
                throw new IllegalArgumentException(where + ": size must be a positive multiple of lineSize="
                        + lineSize);
            }
            long sets = level.sets(lineSize);
            if (sets == 0) {
                throw new IllegalArgumentException(where + ": size is below one set of ways x lineSize="
                        + (long) level.associativity() * lineSize + " bytes");
            }
            long lines = sets * level.associativity();
            if (lines > MAX_LINES) {
                throw new IllegalArgumentException(where + ": lines=" + lines + " exceeds the limit of " + MAX_LINES);
            }
            if (lines < linesAbove) {
                throw new IllegalArgumentException(where + ": lines=" + lines + " is fewer than the " + linesAbove
                        + " lines of L" + i + "; an inclusive level must hold every line of the levels above it");
            }
            linesAbove = lines;
        }
    }

    /** A hierarchy with {@link #DEFAULT_LINE_SIZE}-byte lines. */
    public CacheConfig(List<Level> levels) {
        this(levels, DEFAULT_LINE_SIZE);
    }

    /**
     * NVCT's configuration for the paper's crash tests (EasyCrash, Appendix A.3, Table 4): L1 32 KiB 8-way, L2 1 MiB
     * 12-way, L3 19.25 MiB 11-way, 64-byte lines.
     */
    public static CacheConfig paperTable4() {
        return new CacheConfig(List.of(new Level(32L << 10, 8), new Level(1L << 20, 12),
                new Level(19712L << 10, 11)));
    }

    /**
     * The footprint a crash-test input should have per byte of last-level cache: {@value}. The paper's smallest
     * crash-test inputs have about 2.9 (CG class A, 55 MB on the 19.25 MB L3; Table 11), and its rule (§6, "what
     * kind of application is not suitable") asks non-critical objects alone to be at least twice the LLC, or a crash
     * loses most of their updates in the cache and recomputability is under-estimated. Four times the whole
     * footprint meets that rule for every application whose critical objects are at most half its footprint.
     */
    public static final int FOOTPRINT_PER_LLC = 4;

    /**
     * This hierarchy shrunk for a problem of {@code footprintBytes}, so its last level holds at most
     * 1/{@value #FOOTPRINT_PER_LLC} of it: every level keeps its associativity and gets the same fraction of its sets
     * (at least one, and enough to hold the level above). A footprint already that large gets this hierarchy
     * unchanged.
     *
     * <p>Why: NPB class S runs in a few MB. Under the paper's 19 MB L3 nothing is ever evicted, so a crash leaves NVM
     * holding only the initial state and every crash test measures the cache, not the application.
     */
    public CacheConfig scaledTo(long footprintBytes) {
        if (footprintBytes <= 0) {
            throw new IllegalArgumentException("footprint=" + footprintBytes + " must be positive");
        }
        Level last = levels.getLast();
        double fraction = (double) footprintBytes / FOOTPRINT_PER_LLC / last.sizeBytes();
        if (fraction >= 1) {
            return this;
        }
        List<Level> scaled = new ArrayList<>(levels.size());
        long linesAbove = 0;
        for (Level level : levels) {
            int ways = level.associativity();
            long sets = Math.max(Math.round(level.sets(lineSize) * fraction), Math.ceilDiv(Math.max(1, linesAbove),
                    ways)); // at least one set, and inclusive: every line of the level above must fit
            scaled.add(new Level(sets * ways * lineSize, ways));
            linesAbove = sets * ways;
        }
        return new CacheConfig(scaled, lineSize);
    }

    /**
     * Reads {@code SIZE:WAYS[,SIZE:WAYS...]}, L1 first, e.g. {@code 32K:8,1M:12,19712K:11}. SIZE is a byte count
     * with an optional binary suffix K, M or G (case-insensitive) and may have a fraction if the result is a whole
     * number of bytes ({@code 19.25M}). Lines are {@value #DEFAULT_LINE_SIZE} bytes.
     *
     * @throws IllegalArgumentException one line quoting the spec and the part at fault
     */
    public static CacheConfig parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("cache spec is empty: expected SIZE:WAYS[,SIZE:WAYS...], e.g. "
                    + "32K:8,1M:12,19712K:11");
        }
        String[] items = spec.split(",", -1);
        List<Level> levels = new ArrayList<>(items.length);
        for (int i = 0; i < items.length; i++) {
            String where = "cache spec '" + spec + "' level L" + (i + 1);
            String[] parts = items[i].trim().split(":", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException(where + ": expected SIZE:WAYS, e.g. 32K:8, got '" + items[i] + "'");
            }
            levels.add(new Level(parseSize(where, parts[0].trim()), parseWays(where, parts[1].trim())));
        }
        return new CacheConfig(levels);
    }

    private static long parseSize(String where, String text) {
        Matcher matcher = SIZE.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(where + ": size='" + text
                    + "' is not a byte count (digits with an optional K, M or G)");
        }
        int shift = switch (matcher.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            default -> 0;
        };
        try {
            return new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(1L << shift)).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(where + ": size='" + text + "' is not a whole number of bytes");
        }
    }

    private static int parseWays(String where, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": ways='" + text + "' is not an integer");
        }
    }

    /** Number of levels. */
    public int depth() {
        return levels.size();
    }

    /** Sets of level {@code level} (0 = L1). */
    public int sets(int level) {
        return (int) levels.get(level).sets(lineSize);
    }

    /** Lines level {@code level} holds: sets times ways. */
    public int lines(int level) {
        return sets(level) * levels.get(level).associativity();
    }

    /**
     * The spec {@link #parse} reads, sizes in the largest exact binary unit, e.g. {@code 32K:8,1M:12,19712K:11}. The
     * line size is not part of the spec.
     */
    public String toSpec() {
        StringBuilder spec = new StringBuilder();
        for (Level level : levels) {
            if (!spec.isEmpty()) {
                spec.append(',');
            }
            long size = level.sizeBytes();
            String unit = "";
            for (String next : new String[] {"K", "M", "G"}) {
                if (size % 1024 != 0) {
                    break;
                }
                size /= 1024;
                unit = next;
            }
            spec.append(size).append(unit).append(':').append(level.associativity());
        }
        return spec.toString();
    }
}
