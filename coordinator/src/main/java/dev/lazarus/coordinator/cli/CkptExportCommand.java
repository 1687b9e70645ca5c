package dev.lazarus.coordinator.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.lazarus.store.catalog.Catalog;
import dev.lazarus.store.export.Hdf5Export;
import dev.lazarus.store.export.Hdf5Exporter;
import dev.lazarus.store.DirectoryCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code lazarus ckpt export}: one version as an HDF5 file (a group per rank, a dataset per variable), from the first
 * selected level where the version is complete.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Write a checkpoint version as HDF5 (readable with h5dump, h5py, HDFView).")
final class CkptExportCommand implements Callable<Integer> {

    @ParentCommand
    private CkptCommand parent;

    @Mixin
    CkptLevelOptions levels;

    @Option(names = "--version", paramLabel = "V", required = true, description = "The version to export.")
    long version;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", required = true, description = "The HDF5 file to write.")
    Path output;

    @Option(names = "--ranks", paramLabel = "R,...", split = ",", description = "Only these ranks (default: all).")
    List<Integer> ranks;

    @Option(names = "--overwrite", description = "Replace FILE if it exists.")
    boolean overwrite;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        LazarusCli cli = parent.cli();
        if (levels.job == null) {
            throw new IllegalArgumentException("--job is required for export");
        }
        checkOutput();
        for (CkptLevelOptions.JobLevel level : levels.resolve(cli.environment())) {
            if (!level.directory().versions().contains(version)
                    || !new Catalog(level.directory()).status(version, false).complete()) {
                continue;
            }
            Hdf5Exporter exporter = new Hdf5Exporter(level.directory()).overwrite(overwrite);
            if (ranks != null) {
                exporter.ranks(ranks);
            }
            Hdf5Export result = exporter.export(version, output);
            print(cli, level.level(), result);
            return 0;
        }
        throw new IllegalArgumentException("no level holds a complete version " + version + " of job " + levels.job
                + " (see 'lazarus ckpt list --job " + levels.job + "')");
    }

    /** The output file's directory must exist and the file be new (or --overwrite given), before anything is read. */
    private void checkOutput() {
        Path parent = output.toAbsolutePath().getParent();
        DirectoryCheck.existing("--out", parent);
        if (Files.isDirectory(output)) {
            throw new IllegalArgumentException("--out " + output + ": is a directory");
        }
        if (!overwrite && Files.exists(output, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("--out " + output + ": exists (give --overwrite to replace it)");
        }
    }

    private void print(LazarusCli cli, String level, Hdf5Export result) throws java.io.IOException {
        if (!json) {
            cli.out().println("exported job " + result.job() + " version " + result.version() + " from " + level
                    + ": " + result.ranks().size() + " rank(s), " + result.datasets() + " dataset(s), "
                    + CatalogReport.bytes(result.fileBytes()) + " -> " + result.file());
            return;
        }
        StringWriter text = new StringWriter();
        try (JsonGenerator out = new JsonFactory().createGenerator(text)) {
            out.writeStartObject();
            out.writeStringField("file", result.file().toString());
            out.writeStringField("level", level);
            out.writeStringField("job", result.job());
            out.writeNumberField("version", result.version());
            out.writeNumberField("world_size", result.worldSize());
            out.writeNumberField("ranks", result.ranks().size());
            out.writeNumberField("datasets", result.datasets());
            out.writeNumberField("data_bytes", result.dataBytes());
            out.writeNumberField("file_bytes", result.fileBytes());
            out.writeEndObject();
        }
        cli.out().println(text);
    }
}
