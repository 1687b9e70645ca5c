package dev.lazarus.store.export;

import static dev.lazarus.store.export.Hdf5ExportLayout.CHAIN;
import static dev.lazarus.store.export.Hdf5ExportLayout.JOB;
import static dev.lazarus.store.export.Hdf5ExportLayout.PARENT_VERSION;
import static dev.lazarus.store.export.Hdf5ExportLayout.RANK;
import static dev.lazarus.store.export.Hdf5ExportLayout.VERSION;
import static dev.lazarus.store.export.Hdf5ExportLayout.WORLD_SIZE;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.Variable;
import dev.lazarus.store.files.SecureFiles;
import dev.lazarus.store.format.ManifestFiles;
import dev.lazarus.store.format.RankManifest;
import dev.lazarus.store.incremental.ChainRestorer;
import dev.lazarus.store.level.CheckpointDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.WritableGroup;
import io.jhdf.exceptions.HdfException;

/**
 * Writes one HDF5 file for one version of a job at one level: a group per rank, a dataset per variable holding the
 * composed state of the version (the full base plus every increment, exactly what {@link ChainRestorer#restore}
 * puts into memory) with the variable's element type and full shape. {@link Hdf5ExportLayout} draws the file.
 *
 * <p><b>Memory.</b> One rank is composed at a time, in native memory, and its variables are written straight from
 * it; no Java arrays are built. A rank whose variables together exceed {@link #maxRankBytes(long)} (default
 * {@value #DEFAULT_MAX_RANK_BYTES} bytes) is refused before anything is written.
 *
 * <p><b>Files.</b> The file is written under a temporary name in the output's directory, mode 0600, fsynced, and
 * renamed (or hard-linked, when it must not replace a file) into place: a half-written export never has the output's
 * name. Every manifest of every exported rank is checked before the file is created; a damaged data chunk found while
 * writing removes the temporary file. Errors are one line: {@code export job=J version=V rank=R: reason}.
 *
 * <p>Settings are fluent and checked when set; one exporter may export several versions, from one thread at a time.
 */
public final class Hdf5Exporter {
    /** Default of {@link #maxRankBytes(long)}: 1 GiB of composed state per rank. */
    public static final long DEFAULT_MAX_RANK_BYTES = 1L << 30;
    private static final FileAttribute<Set<PosixFilePermission>> FILE_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final CheckpointDirectory directory;
    private List<Integer> ranks;
    private boolean overwrite;
    private long maxRankBytes = DEFAULT_MAX_RANK_BYTES;

    /** @param directory the job's versions at one level */
    public Hdf5Exporter(CheckpointDirectory directory) {
        if (directory == null) {
            throw new IllegalArgumentException("export needs a checkpoint directory");
        }
        this.directory = directory;
    }

    /**
     * Exports only these ranks (default: every rank of the job).
     *
     * @param ranks one or more distinct ranks, each checked against the job's world size on export
     */
    public Hdf5Exporter ranks(List<Integer> ranks) {
        if (ranks == null || ranks.isEmpty()) {
            throw new IllegalArgumentException("ranks must name at least one rank");
        }
        Set<Integer> seen = new HashSet<>();
        for (Integer rank : ranks) {
            if (rank == null || rank < 0 || rank >= RankManifest.MAX_WORLD || !seen.add(rank)) {
                throw new IllegalArgumentException("ranks=" + ranks + " must be distinct ranks from 0");
            }
        }
        this.ranks = ranks.stream().sorted().toList();
        return this;
    }

    /** @param overwrite replace an existing output file (default false: an existing file is an error) */
    public Hdf5Exporter overwrite(boolean overwrite) {
        this.overwrite = overwrite;
        return this;
    }

    /** @param bytes most bytes of composed state one rank may need in memory; at least 1 */
    public Hdf5Exporter maxRankBytes(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("maxRankBytes=" + bytes + " must be at least 1");
        }
        this.maxRankBytes = bytes;
        return this;
    }

    /**
     * Writes {@code version} to {@code output}.
     *
     * @throws FileAlreadyExistsException if {@code output} exists and overwrite is off
     * @throws CorruptCheckpointException if an exported rank's chain is missing, damaged or inconsistent; the
     *                                    message names the rank and the reason, and no file is left behind
     * @throws IOException                if a rank needs more than {@link #maxRankBytes(long)}, or writing fails
     */
    public Hdf5Export export(long version, Path output) throws IOException {
        directory.versionDirectory(version); // checks the version's range
        String context = "export job=" + directory.job() + " version=" + version;
        Path target = output.toAbsolutePath();
        Path parent = target.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new NoSuchFileException(null, null, context + ": output directory=" + parent + " missing");
        }
        if (!overwrite && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw exists(target, context);
        }
        List<RankChain> chains = plan(version, context);
        int worldSize = chains.getFirst().chain().getLast().worldSize();
        Path temporary = Files.createTempFile(parent, "." + target.getFileName() + ".", ".tmp", FILE_MODE);
        try {
            write(version, worldSize, chains, temporary, context);
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            publish(temporary, target, context);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        int datasets = chains.stream().mapToInt(c -> c.variables().size()).sum();
        long dataBytes = chains.stream().mapToLong(RankChain::bytes).sum();
        return new Hdf5Export(target, directory.job(), version, worldSize,
                chains.stream().map(RankChain::rank).toList(), datasets, dataBytes, Files.size(target));
    }

    /** Reads and checks the chain of every exported rank, and the memory each needs, before any file exists. */
    private List<RankChain> plan(long version, String context) throws IOException {
        List<Integer> present = directory.ranksWithManifest(version);
        if (present.isEmpty()) {
            throw new CorruptCheckpointException(context + ": no rank manifests in "
                    + directory.versionDirectory(version));
        }
        int probe = ranks != null && present.contains(ranks.getFirst()) ? ranks.getFirst() : present.getFirst();
        int worldSize;
        try {
            worldSize = ManifestFiles.read(directory.manifestFile(version, probe)).worldSize();
        } catch (IOException e) {
            throw inContext(context + " rank=" + probe, e);
        }
        List<Integer> selected = ranks != null ? ranks : IntStream.range(0, worldSize).boxed().toList();
        List<RankChain> chains = new ArrayList<>();
        for (int rank : selected) {
            String where = context + " rank=" + rank;
            if (rank >= worldSize) {
                throw new IllegalArgumentException(where + ": outside world size=" + worldSize);
            }
            RankChain chain;
            try {
                chain = new RankChain(rank, ChainRestorer.chain(directory, version, rank, worldSize));
            } catch (IOException e) {
                throw inContext(where, e);
            }
            if (chain.bytes() > maxRankBytes) {
                throw new IOException(where + ": composing it needs bytes=" + chain.bytes()
                        + " of memory, more than maxRankBytes=" + maxRankBytes);
            }
            for (Variable variable : chain.variables()) {
                if (variable.name().equals(".")) {
                    throw new IOException(where + ": variable '.' cannot name an HDF5 dataset (it means the group)");
                }
            }
            chains.add(chain);
        }
        return chains;
    }

    private void write(long version, int worldSize, List<RankChain> chains, Path temporary, String context)
            throws IOException {
        Map<Integer, List<Variable>> variables = new LinkedHashMap<>();
        chains.forEach(c -> variables.put(c.rank(), c.variables()));
        try (RankMemory memory = new RankMemory(directory, version, worldSize, variables, context)) {
            WritableHdfFile file = HdfFile.write(temporary);
            file.putAttribute(JOB, directory.job());
            file.putAttribute(VERSION, version);
            file.putAttribute(WORLD_SIZE, worldSize);
            for (RankChain chain : chains) {
                int rank = chain.rank();
                WritableGroup group = file.putGroup(Hdf5ExportLayout.rankGroup(rank));
                group.putAttribute(RANK, rank);
                group.putAttribute(PARENT_VERSION, chain.chain().getLast().parentVersion());
                group.putAttribute(CHAIN, chain.chain().stream().mapToLong(RankManifest::version).toArray());
                List<Variable> rankVariables = chain.variables();
                for (int v = 0; v < rankVariables.size(); v++) {
                    int index = v;
                    group.putDataset(rankVariables.get(v).name(),
                            new SegmentDataset(group, rankVariables.get(v), () -> memory.variable(rank, index)));
                }
            }
            file.close(); // jhdf writes everything here, composing each rank when its first dataset is written
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (HdfException e) {
            Throwable cause = e.getCause();
            throw new IOException(context + ": writing " + temporary + " failed: " + e.getMessage()
                    + (cause == null ? "" : ": " + cause.getMessage()), e);
        }
    }

    /** Moves the finished file into place: replacing only when asked, and atomically either way. */
    private void publish(Path temporary, Path target, String context) throws IOException {
        if (overwrite) {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } else {
            boolean linked;
            try {
                // Unlike rename, link fails when the target exists, so a file created meanwhile is not replaced.
                Files.createLink(target, temporary);
                linked = true;
            } catch (FileAlreadyExistsException e) {
                throw exists(target, context);
            } catch (FileSystemException | UnsupportedOperationException e) {
                linked = false; // a file system without hard links: check, then rename
            }
            if (linked) {
                Files.delete(temporary);
            } else if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                throw exists(target, context);
            } else {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        SecureFiles.syncDirectory(target.getParent());
    }

    private static FileAlreadyExistsException exists(Path target, String context) {
        return new FileAlreadyExistsException(null, null,
                context + ": output=" + target + " exists; set overwrite to replace it");
    }

    /** @return {@code e} with {@code context} before its message, of the same kind (corrupt or plain I/O) */
    static IOException inContext(String context, IOException e) {
        if (e instanceof CorruptCheckpointException) {
            CorruptCheckpointException corrupt = new CorruptCheckpointException(context + ": " + e.getMessage());
            corrupt.initCause(e);
            return corrupt;
        }
        return new IOException(context + ": " + e.getMessage(), e);
    }

    /** One exported rank and its manifests, base first. */
    private record RankChain(int rank, List<RankManifest> chain) {

        List<Variable> variables() {
            return chain.getLast().variables();
        }

        long bytes() {
            return variables().stream().mapToLong(Variable::byteSize).sum();
        }
    }
}
