package dev.lazarus.coordinator.cli;

import picocli.CommandLine.Command;

/**
 * {@code lazarus ckpt verify}: reads every chunk of every version's chain and checks its CRC32C, and this node's L2
 * parity's. Exit status 1 if any version looked at is incomplete or damaged, its parity included.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Check every chunk's checksum and this node's L2 parity; exit status 1 if any version is"
                + " incomplete or damaged.")
final class CkptVerifyCommand extends CatalogCommand {

    @Override
    boolean verifyData() {
        return true;
    }

    @Override
    int status(CatalogReport report) {
        return report.noneDamaged() && !report.anyParityDamaged() ? 0 : 1;
    }
}
