package dev.lazarus.easycrash;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Which critical objects a production run persists, at which code regions and how often: the output of a crash-test
 * campaign (paper §5.3 step 4). Stored as a properties file so a person can read and edit it:
 *
 * <pre>
 * app=npb.CG
 * regions=conjGrad,computeNorms,updateZeta,normalizeX
 * critical=p,q
 * every.conjGrad=1        # persist at the end of every execution of the region
 * every.normalizeX=4      # ... of every 4th execution; regions not listed are never persisted
 * recomputability=0.83    # the campaign's measured recomputability with this plan (optional)
 * </pre>
 *
 * @param application  the application the plan was made for
 * @param regions      the application's code regions, in order
 * @param critical     names of the critical data objects
 * @param every        per region index: persist at every n-th end of the region, 0 = never
 * @param recomputability the fraction of the campaign's crash tests this plan recomputed, which the coordinator
 *                        weighs NVM restart with; NaN when unknown (a plan written by hand)
 */
public record PersistencePlan(String application, List<String> regions, List<String> critical, int[] every,
                              double recomputability) {
    private static final int MAX_BYTES = 64 * 1024;

    public PersistencePlan {
        regions = List.copyOf(regions);
        critical = List.copyOf(critical);
        every = every.clone();
        if (every.length != regions.size()) {
            throw new IllegalArgumentException("plan has " + every.length + " frequencies for " + regions.size()
                    + " regions");
        }
        if (!Double.isNaN(recomputability) && !(recomputability >= 0.0 && recomputability <= 1.0)) {
            throw new IllegalArgumentException("plan recomputability " + recomputability + " is not in [0, 1]");
        }
    }

    /** A plan with no measured recomputability. */
    public PersistencePlan(String application, List<String> regions, List<String> critical, int[] every) {
        this(application, regions, critical, every, Double.NaN);
    }

    /** This plan, with the recomputability a campaign measured for it. */
    public PersistencePlan withRecomputability(double measured) {
        return new PersistencePlan(application, regions, critical, every, measured);
    }

    /** A plan that persists nothing (production without a plan). */
    public static PersistencePlan none(String application, List<String> regions) {
        return new PersistencePlan(application, regions, List.of(), new int[regions.size()]);
    }

    /** Persist at the n-th end of region {@code region}, 0 = never. */
    public int every(int region) {
        return every[region];
    }

    /**
     * Checks the plan fits {@code application} with these regions and objects.
     *
     * @throws IllegalArgumentException one line naming the mismatch
     */
    public void checkMatches(String app, List<String> appRegions, List<String> candidates) {
        if (!application.equals(app)) {
            throw new IllegalArgumentException("plan is for application " + application + ", not " + app);
        }
        if (!regions.equals(appRegions)) {
            throw new IllegalArgumentException("plan regions " + regions + " do not match " + app + "'s regions "
                    + appRegions);
        }
        for (String name : critical) {
            if (!candidates.contains(name)) {
                throw new IllegalArgumentException("plan names critical object '" + name + "', which is not a "
                        + "candidate object of " + app + " " + candidates);
            }
        }
    }

    /**
     * Reads a plan file.
     *
     * @throws IllegalArgumentException one line for a missing, oversized or malformed file
     */
    public static PersistencePlan read(Path file) {
        Properties p = new Properties();
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new IllegalArgumentException("plan file " + file + " is larger than " + MAX_BYTES + " bytes");
            }
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read plan file " + file + ": " + e.getMessage());
        }
        String app = required(p, "app", file);
        List<String> regions = list(required(p, "regions", file));
        List<String> critical = list(p.getProperty("critical", ""));
        int[] every = new int[regions.size()];
        for (int i = 0; i < every.length; i++) {
            String value = p.getProperty("every." + regions.get(i), "0").trim();
            try {
                every[i] = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                every[i] = -1;
            }
            if (every[i] < 0) {
                throw new IllegalArgumentException("plan file " + file + ": every." + regions.get(i) + "=" + value
                        + " must be a non-negative integer");
            }
        }
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("every.") && !regions.contains(key.substring("every.".length()))) {
                throw new IllegalArgumentException("plan file " + file + ": " + key + " names no region of "
                        + regions);
            }
        }
        return new PersistencePlan(app, regions, critical, every, recomputability(p, file));
    }

    private static double recomputability(Properties p, Path file) {
        String value = p.getProperty("recomputability");
        if (value == null) {
            return Double.NaN;
        }
        try {
            double r = Double.parseDouble(value.trim());
            if (r >= 0.0 && r <= 1.0) {
                return r;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("plan file " + file + ": recomputability=" + value.trim()
                + " must be a number from 0 to 1");
    }

    /** Writes the plan, readable by the owner only. */
    public void write(Path file, String comment) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("app", application);
        entries.put("regions", String.join(",", regions));
        entries.put("critical", String.join(",", critical));
        for (int i = 0; i < every.length; i++) {
            if (every[i] > 0) {
                entries.put("every." + regions.get(i), Integer.toString(every[i]));
            }
        }
        if (!Double.isNaN(recomputability)) {
            entries.put("recomputability", String.format(java.util.Locale.ROOT, "%.4f", recomputability));
        }
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("# Lazarus EasyCrash persistence plan. " + comment + "\n");
            for (Map.Entry<String, String> e : entries.entrySet()) {
                out.write(e.getKey() + "=" + e.getValue() + "\n");
            }
        }
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    private static String required(Properties p, String key, Path file) {
        String value = p.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("plan file " + file + " has no " + key + "=");
        }
        return value.trim();
    }

    private static List<String> list(String text) {
        List<String> items = new ArrayList<>();
        for (String item : text.split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PersistencePlan p && application.equals(p.application) && regions.equals(p.regions)
                && critical.equals(p.critical) && java.util.Arrays.equals(every, p.every)
                && Double.compare(recomputability, p.recomputability) == 0;
    }

    @Override
    public int hashCode() {
        return application.hashCode() * 31 + java.util.Arrays.hashCode(every);
    }
}
