package dev.lazarus.recovery.campaign;

import dev.lazarus.recovery.crash.CacheConfig;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link CampaignMain}'s arguments, as {@code ./lazarus campaign} passes them:
 * {@code --app NAME --out DIR [--tests N] [--seed S] [--threads T] [--cache auto|table4|SPEC] [--budget F]
 * [--mtbf-hours H] [--checkpoint-seconds S] [--nvm-bandwidth B] [--work DIR] [--json] [-- APP ARGS]}.
 *
 * @param cache      the cache hierarchy, or the one to scale to the footprint when {@code scaleCache}
 * @param scaleCache {@code --cache auto} (the default): the paper's Table 4 shrunk with
 *                   {@link CacheConfig#scaledTo} to the application's footprint
 */
record CampaignOptions(String application, Path output, int tests, long seed, int threads, CacheConfig cache,
                       boolean scaleCache, Campaign.Settings settings, Path workRoot, boolean json,
                       List<String> applicationArguments) {

    /** The hierarchy to model for an application whose data objects take {@code footprintBytes}. */
    CacheConfig cacheFor(long footprintBytes) {
        return scaleCache ? cache.scaledTo(footprintBytes) : cache;
    }

    static CampaignOptions parse(String[] args) {
        String app = null;
        Path out = null;
        int tests = 1000;
        long seed = 1;
        int threads = Runtime.getRuntime().availableProcessors();
        CacheConfig cache = CacheConfig.paperTable4();
        boolean scaleCache = true;
        double budget = 0.03;
        double mtbfHours = 12;
        double checkpointSeconds = 320;
        double nvmBandwidth = 2e9;
        Path work = Path.of("/dev/shm");
        boolean json = false;
        List<String> appArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) {
                appArgs.addAll(List.of(args).subList(i + 1, args.length));
                break;
            }
            if (a.equals("--json")) {
                json = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--app" -> app = v;
                case "--out" -> out = Path.of(v);
                case "--tests" -> tests = positive(a, v);
                case "--seed" -> seed = number(a, v);
                case "--threads" -> threads = positive(a, v);
                case "--cache" -> {
                    scaleCache = v.equals("auto");
                    cache = scaleCache || v.equals("table4") ? CacheConfig.paperTable4() : CacheConfig.parse(v);
                }
                case "--budget" -> budget = fraction(a, v);
                case "--mtbf-hours" -> mtbfHours = positiveReal(a, v);
                case "--checkpoint-seconds" -> checkpointSeconds = positiveReal(a, v);
                case "--nvm-bandwidth" -> nvmBandwidth = positiveReal(a, v);
                case "--work" -> work = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (app == null || out == null) {
            throw new IllegalArgumentException("--app and --out are required");
        }
        return new CampaignOptions(app, out, tests, seed, threads, cache, scaleCache, new Campaign.Settings(tests, seed, budget,
                mtbfHours * 3600, checkpointSeconds, nvmBandwidth), work, json, List.copyOf(appArgs));
    }

    private static long number(String option, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + "=" + value + " is not an integer");
        }
    }

    private static int positive(String option, String value) {
        long n = number(option, value);
        if (n < 1 || n > 1_000_000) {
            throw new IllegalArgumentException(option + "=" + value + " must be between 1 and 1000000");
        }
        return (int) n;
    }

    private static double positiveReal(String option, String value) {
        try {
            double d = Double.parseDouble(value);
            if (d > 0 && Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the message
        }
        throw new IllegalArgumentException(option + "=" + value + " must be a positive number");
    }

    private static double fraction(String option, String value) {
        double d = positiveReal(option, value);
        if (d >= 1) {
            throw new IllegalArgumentException(option + "=" + value + " must be below 1 (a fraction of run time)");
        }
        return d;
    }
}
