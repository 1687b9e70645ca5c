package dev.lazarus.coordinator.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lazarus ckpt}: what the checkpoint levels hold, like SCR's {@code scr_index}. */
@Command(name = "ckpt", mixinStandardHelpOptions = true,
        description = "List, verify, rebuild, export or remove checkpoint versions on the levels (L1, L2, L3).",
        subcommands = {CkptListCommand.class, CkptVerifyCommand.class, CkptRebuildCommand.class,
                CkptExportCommand.class, CkptRemoveCommand.class})
final class CkptCommand implements Runnable {

    @ParentCommand
    private LazarusCli cli;

    @Spec
    private CommandSpec spec;

    LazarusCli cli() {
        return cli;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing command: list, verify, rebuild, export or rm");
    }
}
