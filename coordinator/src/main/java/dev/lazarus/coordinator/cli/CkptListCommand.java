package dev.lazarus.coordinator.cli;

import picocli.CommandLine.Command;

/** {@code lazarus ckpt list}: the versions on each level, complete or not and why, from manifests only. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List checkpoint versions per level and job: complete or not, ranks, size, problems.")
final class CkptListCommand extends CatalogCommand {

    @Override
    boolean verifyData() {
        return false;
    }

    @Override
    int status(CatalogReport report) {
        return 0;
    }
}
