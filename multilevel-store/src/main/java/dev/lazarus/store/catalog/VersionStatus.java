package dev.lazarus.store.catalog;

import dev.lazarus.store.format.PageFilter;
import dev.lazarus.store.level.l2.ParityStatus;

import java.util.List;

/**
 * What a level holds of one version.
 *
 * @param version       the version
 * @param worldSize     ranks the manifests say the job has; 0 if no manifest could be read
 * @param ranksUsable   ranks whose chain (manifests, and data if verified) is intact
 * @param full          true if every usable rank's checkpoint of this version is full
 * @param bytes         data and manifest bytes of this version's own files (not its chain's)
 * @param problems      one line per damaged or missing part, with the reason
 * @param dataVerified  true if chunk checksums were checked, not just manifests
 * @param pageFilter    whether the usable ranks' writers had the page pre-filter ({@link PageFilter#of})
 * @param retired       retention started pruning it: missing ranks are expected, and it is never restored
 * @param unverified    some rank's manifest says it was written from state no acceptance check has passed yet
 * @param l2            this node's L2 parity of the version, read beside the version's files on a level that holds
 *                      parity (L1); {@link ParityStatus#NONE} elsewhere
 */
public record VersionStatus(long version, int worldSize, List<Integer> ranksUsable, boolean full, long bytes,
                            List<String> problems, boolean dataVerified, PageFilter pageFilter, boolean retired,
                            boolean unverified, ParityStatus l2) {

    public VersionStatus {
        ranksUsable = List.copyOf(ranksUsable);
        problems = List.copyOf(problems);
    }

    /** @return true if every rank of the job has an intact chain at this level: restart can use it */
    public boolean complete() {
        return !retired && worldSize > 0 && ranksUsable.size() == worldSize && problems.isEmpty();
    }

    /** @return true if the version is damaged: incomplete, and not because retention was pruning it */
    public boolean damaged() {
        return !retired && !complete();
    }
}
