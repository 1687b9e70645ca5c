package dev.lazarus.coordinator.cli;

import dev.lazarus.checkpoint.CheckpointSettings;
import dev.lazarus.daemon.l2.L2Context;
import dev.lazarus.daemon.l2.L2Rebuilder;
import dev.lazarus.daemon.l2.RebuildResult;
import dev.lazarus.daemon.l2.UnrecoverableAtL2Exception;
import dev.lazarus.store.DirectoryCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code lazarus ckpt rebuild}: restores this node's L1 files of a version from the other members of its L2 set
 * (L2), whose node daemons must be serving. Exit status 3 when two members of the set are lost: restart from L3.
 */
@Command(name = "rebuild", mixinStandardHelpOptions = true,
        description = "Rebuild this node's L1 files of a version from its L2 set (XOR parity or partner copies, as"
                + " the survivors' parity manifests say); exit 3 if unrecoverable.")
final class CkptRebuildCommand implements Callable<Integer> {
    /** Exit status when L2 cannot rebuild (two members of the set lost). */
    static final int UNRECOVERABLE = 3;

    @ParentCommand
    private CkptCommand parent;

    @Option(names = "--job", paramLabel = "JOB", required = true, description = "The job.")
    String job;

    @Option(names = "--version", paramLabel = "V", required = true, description = "The version to rebuild.")
    long version;

    @Option(names = "--members", paramLabel = "A:P,...", required = true, split = ",",
            description = "Every node's L2 address, in node order.")
    List<String> members;

    @Option(names = "--self", paramLabel = "I", required = true, description = "This node's index in --members.")
    int self;

    @Option(names = "--secret", paramLabel = "FILE", required = true, description = "The job's secret (0600).")
    Path secret;

    @Option(names = "--set-size", paramLabel = "N", description = "Nodes per XOR set (default: 8).")
    Integer setSize;

    @Option(names = "--l1", paramLabel = "DIR", description = "L1 root (default: LAZARUS_CKPT_DIR or "
            + CheckpointSettings.DEFAULT_L1_DIR + ").")
    Path l1;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        LazarusCli cli = parent.cli();
        L2Context context = new L2Context().job(job).members(members).self(self).secretFile(secret)
                .log(line -> { });
        if (setSize != null) {
            context.setSize(setSize);
        }
        // The same L1 root as the other ckpt commands and the ranks: LAZARUS_CKPT_DIR with %h filled in.
        context.l1Root(l1 != null ? DirectoryCheck.existing("--l1", l1) : new CheckpointSettings(new Properties(),
                cli.environment()).conclude("lazarus").l1Directory());
        try {
            context.environment(cli.environment()).conclude();
        } catch (UncheckedIOException e) {
            // The secret file is missing or unsafe: the user's file, so bad input.
            throw new IllegalArgumentException("--secret: " + e.getMessage());
        }
        RebuildResult result;
        try {
            result = new L2Rebuilder(context).rebuild(version);
        } catch (UnrecoverableAtL2Exception e) {
            cli.err().println("lazarus: " + e.getMessage() + "; restart from L3");
            return UNRECOVERABLE;
        }
        if (json) {
            cli.out().printf("{\"job\":\"%s\",\"version\":%d,\"set\":%d,\"member\":%d,\"ranks\":%s,"
                            + "\"payload_bytes\":%d,\"parity_bytes\":%d,\"seconds\":%.3f}%n", job, version,
                    result.set().setId(), result.set().member(), result.ranks(), result.payloadBytes(),
                    result.parityBytes(), result.nanos() / 1e9);
        } else {
            cli.out().println("rebuilt job " + job + " version " + version + ": ranks " + result.ranks() + ", "
                    + CatalogReport.bytes(result.payloadBytes()) + " from L2 set " + result.set().setId()
                    + " in " + String.format("%.2f", result.nanos() / 1e9) + " s");
        }
        return 0;
    }
}
