package dev.lazarus.store.export;

import java.nio.file.Path;
import java.util.List;

/**
 * What an export wrote.
 *
 * @param file      the HDF5 file, published whole
 * @param job       the job id
 * @param version   the exported version
 * @param worldSize ranks in the job
 * @param ranks     the exported ranks, ascending
 * @param datasets  datasets written (variables over all exported ranks)
 * @param dataBytes bytes of variable data written
 * @param fileBytes size of the file
 */
public record Hdf5Export(Path file, String job, long version, int worldSize, List<Integer> ranks, int datasets,
                         long dataBytes, long fileBytes) {

    public Hdf5Export {
        ranks = List.copyOf(ranks);
    }
}
