package dev.lazarus.coordinator.cli;

import picocli.CommandLine.Command;

/**
 * {@code lazarus ckpt verify}: reads every chunk of every version's chain and checks its CRC32C. Exit status 1 if any
 * version looked at is incomplete or damaged.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Check every chunk's checksum; exit status 1 if any version is incomplete or damaged.")
final class CkptVerifyCommand extends CatalogCommand {

    @Override
    boolean verifyData() {
        return true;
    }

    @Override
    int status(CatalogReport report) {
        return report.allComplete() ? 0 : 1;
    }
}
