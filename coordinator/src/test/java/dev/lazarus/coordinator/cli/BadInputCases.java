package dev.lazarus.coordinator.cli;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The cases of {@link BadInputTest}, one list per command. Paths start with {@code {T}}, the fixture root: {@code FILE}
 * a regular file, {@code DIR} a directory, {@code binary} and {@code text} garbage, {@code dangling} a link to nothing,
 * {@code link-to-*} links, {@code secret*} secrets (good, mode 0644, too short), {@code levels/l1|pfs|nvm} the roots.
 */
final class BadInputCases {
    private static final String T = "{T}/";
    private static final String L1 = T + "levels/l1";
    private static final String PFS = T + "levels/pfs";

    private BadInputCases() {
    }

    private static Arguments lazarus(String name, String... args) {
        return Arguments.of(name, "lazarus", List.of(args));
    }

    /** {@code run --np 2 OPTIONS --dry-run npb.CG}: a case that is wrongly accepted prints a plan, never launches. */
    private static Arguments run(String name, String... options) {
        List<String> args = new ArrayList<>(List.of("run", "--np", "2"));
        args.addAll(List.of(options));
        args.addAll(List.of("--dry-run", "npb.CG"));
        return Arguments.of("run " + name, "lazarus", args);
    }

    static List<Arguments> run() {
        return List.of(
                run("--np 0", "--np", "0"),
                run("--np not a number", "--np", "two"),
                run("--backend unknown", "--backend", "lam"),
                run("--hosts missing file", "--hosts", T + "missing"),
                run("--hosts a directory", "--hosts", T + "DIR"),
                run("--hosts a link to a directory", "--hosts", T + "link-to-DIR"),
                run("--hosts binary garbage", "--hosts", T + "binary"),
                run("--hosts text garbage", "--hosts", T + "text"),
                run("--hosts no host", "--hosts", T + "empty"),
                run("--hosts path under a file", "--hosts", T + "FILE/x"),
                run("--hosts dangling link", "--hosts", T + "dangling"),
                run("--spares without --hosts", "--spares", T + "hosts"),
                run("--spares missing file", "--hosts", T + "hosts", "--spares", T + "missing"),
                run("--spares text garbage", "--hosts", T + "hosts", "--spares", T + "text"),
                run("--spares binary garbage", "--hosts", T + "hosts", "--spares", T + "binary"),
                run("--spares a directory", "--hosts", T + "hosts", "--spares", T + "DIR"),
                run("--spares names a host of --hosts", "--hosts", T + "hosts", "--spares", T + "spares-taken"),
                run("--rsh-agent missing path", "--rsh-agent", T + "missing"),
                run("--rsh-agent not executable", "--rsh-agent", T + "FILE"),
                run("--rsh-agent a directory", "--rsh-agent", T + "DIR"),
                run("--rsh-agent missing command with args", "--rsh-agent", "no-such-agent-here -x"),
                run("--net octet above 255", "--net", "999.1.1.1/99"),
                run("--net prefix above 32", "--net", "10.0.0.0/33"),
                run("--net garbage", "--net", "eth0"),
                run("-cp missing entry", "-cp", T + "missing.jar"),
                run("--jvm-opt -Xmx1k", "--jvm-opt", "-Xmx1k"),
                run("--jvm-opt -Xms1k", "--jvm-opt", "-Xms1k"),
                run("--jvm-opt unknown JVM flag", "--jvm-opt", "-XX:+NoSuchFlagAnywhere"),
                run("--job .", "--job", "."),
                run("--job ..", "--job", ".."),
                run("--job with separator", "--job", "a/b"),
                run("--job empty", "--job", ""),
                run("--job too long", "--job", "j".repeat(65)),
                run("--nvm-dir path under a file", "--nvm-dir", T + "FILE/x"),
                run("--nvm-dir a file", "--nvm-dir", T + "FILE"),
                run("--nvm-dir a link to a file", "--nvm-dir", T + "link-to-FILE"),
                run("--nvm-dir under a dangling link", "--nvm-dir", T + "dangling/x"),
                run("--plan missing", "--plan", T + "missing"),
                run("--plan a directory", "--plan", T + "DIR"),
                run("--plan binary garbage", "--plan", T + "binary"),
                run("--plan negative interval", "--plan", T + "plan-negative"),
                run("--plan without regions", "--plan", T + "plan-no-regions"),
                run("--plan dangling link", "--plan", T + "dangling"),
                run("--ckpt-every negative", "--ckpt-every", "-1"),
                run("--ckpt-every not a number", "--ckpt-every", "often"),
                run("--plain-arrays with checkpoints", "--plain-arrays", "--ckpt-every", "5"),
                run("--plain-arrays with auto checkpoints", "--plain-arrays", "--ckpt-every", "auto"),
                run("--ckpt-every AUTO", "--ckpt-every", "AUTO"),
                run("--node-daemon threads", "--ckpt-every", "5", "--node-daemon", "threads"),
                run("--mtbf 0", "--ckpt-every", "auto", "--mtbf", "0"),
                run("--mtbf not a number", "--ckpt-every", "auto", "--mtbf", "daily"),
                run("--mtbf NaN", "--ckpt-every", "auto", "--mtbf", "NaN"),
                run("--mtbf over ten years", "--ckpt-every", "auto", "--mtbf", "1e12"),
                run("--ckpt-dir a file with auto checkpoints", "--ckpt-every", "auto", "--ckpt-dir", T + "FILE"),
                run("--ckpt-dir path under a file", "--ckpt-every", "5", "--ckpt-dir", T + "FILE/x"),
                run("--ckpt-dir a file", "--ckpt-every", "5", "--ckpt-dir", T + "FILE"),
                run("--pfs-dir path under a file", "--ckpt-every", "5", "--pfs-dir", T + "FILE/x"),
                run("--pfs-keep negative", "--pfs-keep", "-1"),
                run("--l2-every negative", "--l2-every", "-1"),
                run("--l2-set-size 1", "--l2-set-size", "1"),
                run("--l2-scheme unknown", "--l2-scheme", "raid6"),
                run("--l2-secret missing", "--l2-secret", T + "missing"),
                run("--l2-secret mode 0644", "--l2-secret", T + "secret-0644"),
                run("--l2-secret too short", "--l2-secret", T + "secret-short"),
                run("--l2-secret a directory", "--l2-secret", T + "DIR"),
                run("--l2-secret a link", "--l2-secret", T + "link-to-secret"),
                run("--timeout 0", "--timeout", "0"),
                run("--max-restarts -1", "--max-restarts", "-1"),
                run("--max-restarts too many", "--max-restarts", "1001"),
                run("--max-restarts not a number", "--max-restarts", "many"),
                run("--recovery unknown", "--recovery", "fast"),
                run("--hang-timeout 0", "--hang-timeout", "0"),
                run("--hang-timeout not a number", "--hang-timeout", "soon"),
                run("--setup-timeout 0", "--setup-timeout", "0"),
                run("--setup-timeout not a number", "--setup-timeout", "later"),
                run("--setup-timeout too long", "--setup-timeout", "9223372036854775807"),
                run("--hang-timeout too long", "--hang-timeout", "2592001"),
                run("--plan recomputability above 1", "--plan", T + "plan-r"),
                run("unknown option", "--bogus"),
                lazarus("run unknown application", "run", "--np", "2", "--dry-run", "npb.NOPE"),
                lazarus("run no application", "run", "--np", "2", "--dry-run"));
    }

    private static Arguments campaign(String name, String... options) {
        List<String> args = new ArrayList<>(List.of("campaign", "npb.CG"));
        args.addAll(List.of(options));
        return Arguments.of("campaign " + name, "lazarus", args);
    }

    /** {@code status} and {@code halt}: the job and the state directory, and what lies in it. */
    static List<Arguments> status() {
        return List.of(
                lazarus("status without --job", "status"),
                lazarus("status --job ..", "status", "--job", ".."),
                lazarus("status --job a/b", "status", "--job", "a/b"),
                lazarus("status of a job with no state", "status", "--job", "never-ran", "--state-dir", T + "DIR"),
                lazarus("status --state-dir off", "status", "--job", "x", "--state-dir", "off"),
                lazarus("status --state-dir a file", "status", "--job", "x", "--state-dir", T + "FILE"),
                lazarus("run --state-dir under a file", "run", "--np", "2", "--state-dir", T + "FILE/x", "--job",
                        "x", "--dry-run", "npb.CG"),
                lazarus("halt without --job", "halt"),
                lazarus("halt --job ..", "halt", "--job", ".."),
                lazarus("halt of a job with no state", "halt", "--job", "never-ran", "--state-dir", T + "DIR"),
                lazarus("halt --state-dir off", "halt", "--job", "x", "--state-dir", "off"),
                lazarus("halt --now and --after", "halt", "--job", "x", "--state-dir", T + "DIR", "--now",
                        "--after", "5"),
                lazarus("halt --after -1", "halt", "--job", "x", "--state-dir", T + "DIR", "--after", "-1"),
                lazarus("halt --after not a number", "halt", "--job", "x", "--state-dir", T + "DIR", "--after", "x"),
                lazarus("halt --after over a week", "halt", "--job", "x", "--state-dir", T + "DIR", "--after",
                        "99999999"));
    }

    static List<Arguments> campaign() {
        String out = T + "campaign-out";
        return List.of(
                campaign("--class Q", "--class", "Q", "--out", out),
                campaign("--out path under a file", "--out", T + "FILE/x"),
                campaign("--out a file", "--out", T + "FILE"),
                campaign("--out under a dangling link", "--out", T + "dangling/x"),
                campaign("--tests 0", "--tests", "0", "--out", out),
                campaign("--threads 0", "--threads", "0", "--out", out),
                campaign("--seed not a number", "--seed", "x", "--out", out),
                campaign("--budget not a number", "--budget", "x", "--out", out),
                lazarus("campaign unknown application", "campaign", "npb.NOPE", "--out", out));
    }

    private static Arguments ckpt(String name, String... args) {
        List<String> all = new ArrayList<>(List.of("ckpt"));
        all.addAll(List.of(args));
        return Arguments.of("ckpt " + name, "lazarus", all);
    }

    static List<Arguments> ckpt() {
        List<Arguments> cases = new ArrayList<>();
        for (String command : List.of("list", "verify")) {
            cases.addAll(List.of(
                    ckpt(command + " --l1 missing", command, "--l1", T + "missing", "--pfs", PFS),
                    ckpt(command + " --l1 a file", command, "--l1", T + "FILE", "--pfs", PFS),
                    ckpt(command + " --l1 a link to a file", command, "--l1", T + "link-to-FILE", "--pfs", PFS),
                    ckpt(command + " --l1 dangling link", command, "--l1", T + "dangling", "--pfs", PFS),
                    ckpt(command + " --pfs missing", command, "--l1", L1, "--pfs", T + "missing"),
                    ckpt(command + " --level unknown", command, "--level", "l7", "--l1", L1, "--pfs", PFS),
                    ckpt(command + " --job .", command, "--job", ".", "--l1", L1, "--pfs", PFS),
                    ckpt(command + " --job ..", command, "--job", "..", "--l1", L1, "--pfs", PFS),
                    ckpt(command + " --job ../etc", command, "--job", "../etc", "--l1", L1, "--pfs", PFS),
                    ckpt(command + " --version not a number", command, "--version", "x", "--l1", L1, "--pfs", PFS),
                    ckpt(command + " --version absent", command, "--version", "99", "--l1", L1, "--pfs", PFS)));
        }
        cases.addAll(rebuild());
        cases.addAll(export());
        cases.addAll(remove());
        return cases;
    }

    /** {@code ckpt rebuild} with one option replaced; the rest is a valid request. */
    private static Arguments rebuild(String name, String option, String value) {
        List<String> args = new ArrayList<>(List.of("rebuild", "--job", "heat", "--version", "1", "--members",
                "127.0.0.1:1,127.0.0.1:2", "--self", "0", "--secret", T + "secret", "--l1", L1));
        args.set(args.indexOf(option) + 1, value);
        return ckpt("rebuild " + name, args.toArray(String[]::new));
    }

    private static List<Arguments> rebuild() {
        return List.of(
                rebuild("--secret too short", "--secret", T + "secret-short"),
                rebuild("--secret mode 0644", "--secret", T + "secret-0644"),
                rebuild("--secret missing", "--secret", T + "missing"),
                rebuild("--secret a directory", "--secret", T + "DIR"),
                rebuild("--secret a link", "--secret", T + "link-to-secret"),
                rebuild("--job .", "--job", "."),
                rebuild("--job ..", "--job", ".."),
                rebuild("--l1 missing", "--l1", T + "missing"),
                rebuild("--l1 a file", "--l1", T + "FILE"),
                rebuild("--members garbage", "--members", "not-an-address"),
                rebuild("--self outside the members", "--self", "5"),
                rebuild("--self not a number", "--self", "x"),
                rebuild("--version not a number", "--version", "x"));
    }

    private static Arguments export(String name, String... options) {
        List<String> args = new ArrayList<>(List.of("export", "--job", "heat", "--l1", L1, "--pfs", PFS));
        args.addAll(List.of(options));
        return ckpt("export " + name, args.toArray(String[]::new));
    }

    private static List<Arguments> export() {
        return List.of(
                export("--out path under a file", "--version", "1", "--out", T + "FILE/x.h5"),
                export("--out a directory", "--version", "1", "--out", T + "DIR"),
                export("--out in a missing directory", "--version", "1", "--out", T + "missing/x.h5"),
                export("--out an existing file", "--version", "1", "--out", T + "FILE"),
                export("--version absent", "--version", "99", "--out", T + "x.h5"),
                export("--version not a number", "--version", "x", "--out", T + "x.h5"),
                export("--ranks outside the world", "--version", "1", "--ranks", "7", "--out", T + "x.h5"),
                export("--ranks not numbers", "--version", "1", "--ranks", "a,b", "--out", T + "x.h5"),
                ckpt("export --job ..", "export", "--job", "..", "--version", "1", "--out", T + "x.h5",
                        "--l1", L1, "--pfs", PFS),
                ckpt("export --l1 missing", "export", "--job", "heat", "--version", "1", "--out", T + "x.h5",
                        "--l1", T + "missing", "--pfs", PFS));
    }

    private static Arguments remove(String name, String... options) {
        List<String> args = new ArrayList<>(List.of("rm", "--l1", L1, "--pfs", PFS));
        args.addAll(List.of(options));
        return ckpt("rm " + name, args.toArray(String[]::new));
    }

    private static List<Arguments> remove() {
        return List.of(
                remove("--job . --all", "--job", ".", "--all"),
                remove("--job .. --all", "--job", "..", "--all"),
                remove("--job .. --version 1", "--job", "..", "--version", "1"),
                remove("--job . --version 1", "--job", ".", "--version", "1"),
                remove("--job with separator", "--job", "levels/../heat", "--all"),
                remove("neither --version nor --all", "--job", "heat"),
                remove("both --version and --all", "--job", "heat", "--version", "1", "--all"),
                remove("--version absent", "--job", "heat", "--version", "99"),
                remove("--all of an absent job", "--job", "nope", "--all"),
                remove("no --job", "--version", "1"),
                ckpt("rm --l1 missing", "rm", "--job", "heat", "--all", "--l1", T + "missing", "--pfs", PFS),
                ckpt("rm --l1 a file", "rm", "--job", "heat", "--all", "--l1", T + "FILE", "--pfs", PFS),
                ckpt("rm --pfs a link to a file", "rm", "--job", "heat", "--all", "--l1", L1, "--pfs",
                        T + "link-to-FILE"));
    }

    /** The L2 command ({@code L2Main}): {@code COMMAND --job heat --secret secret --l1 L1 OPTIONS}. */
    private static Arguments l2(String name, String command, String... options) {
        List<String> args = new ArrayList<>(List.of(command, "--job", "heat", "--secret", T + "secret", "--l1", L1));
        for (int i = 0; i < options.length; i += 2) {
            int at = args.indexOf(options[i]);
            if (at >= 0) {
                args.set(at + 1, options[i + 1]);
            } else {
                args.addAll(List.of(options[i], options[i + 1]));
            }
        }
        return Arguments.of("l2 " + command + " " + name, "l2", args);
    }

    static List<Arguments> l2() {
        String members = "127.0.0.1:1,127.0.0.1:2";
        return List.of(
                Arguments.of("l2 no command", "l2", List.of()),
                Arguments.of("l2 unknown command", "l2", List.of("scrub", "--job", "heat")),
                l2("--job .", "encode", "--job", ".", "--version", "1", "--members", members, "--self", "0"),
                l2("--job ..", "encode", "--job", "..", "--version", "1", "--members", members, "--self", "0"),
                l2("--job with separator", "rebuild", "--job", "a/b", "--version", "1", "--members", members,
                        "--self", "0"),
                l2("--secret mode 0644", "encode", "--secret", T + "secret-0644", "--version", "1"),
                l2("--secret too short", "encode", "--secret", T + "secret-short", "--version", "1"),
                l2("--secret missing", "encode", "--secret", T + "missing", "--version", "1"),
                l2("--secret a directory", "serve", "--secret", T + "DIR", "--bind", "127.0.0.1:0"),
                l2("--secret a link", "serve", "--secret", T + "link-to-secret", "--bind", "127.0.0.1:0"),
                l2("--l1 path under a file", "serve", "--l1", T + "FILE/x", "--bind", "127.0.0.1:0"),
                l2("--l1 a file", "encode", "--l1", T + "FILE", "--version", "1", "--members", members,
                        "--self", "0"),
                l2("--members garbage", "encode", "--version", "1", "--members", "nowhere", "--self", "0"),
                l2("--self outside the members", "encode", "--version", "1", "--members", members, "--self", "3"),
                l2("--self not a number", "encode", "--version", "1", "--members", members, "--self", "x"),
                l2("--set-size 1", "encode", "--version", "1", "--members", members, "--self", "0",
                        "--set-size", "1"),
                l2("--scheme unknown", "encode", "--version", "1", "--scheme", "raid6"),
                l2("--connect-timeout-ms not a number", "encode", "--version", "1", "--connect-timeout-ms", "x"),
                l2("--io-timeout-ms 0", "encode", "--version", "1", "--io-timeout-ms", "0"),
                l2("--version not a number", "encode", "--version", "x"),
                l2("--version missing", "encode", "--members", members, "--self", "0"),
                l2("--bind wildcard", "serve", "--bind", "0.0.0.0:0"),
                l2("--bind garbage", "serve", "--bind", "garbage"),
                l2("unknown option", "encode", "--frobnicate", "1"),
                Arguments.of("l2 encode option without a value", "l2", List.of("encode", "--job", "heat",
                        "--version")));
    }
}
