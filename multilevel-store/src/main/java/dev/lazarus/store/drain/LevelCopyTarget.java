package dev.lazarus.store.drain;

import dev.lazarus.store.level.CheckpointDirectory;

import java.util.List;

/**
 * Drains one rank's versions to another level's directory (L3: the PFS), each as one full checkpoint composed from
 * its chain ({@link ChainComposer}).
 */
public final class LevelCopyTarget implements DrainTarget {
    private final String level;
    private final CheckpointDirectory source;
    private final CheckpointDirectory target;
    private final int rank;
    private final int every;
    private final boolean direct;

    /**
     * @param level  name for reports
     * @param source the L1 directory
     * @param target the level's directory for the same job
     * @param rank   the rank whose files are copied
     * @param every  every how many L1 versions one is copied
     * @param direct write data files with O_DIRECT where the target's file system takes it
     */
    public LevelCopyTarget(String level, CheckpointDirectory source, CheckpointDirectory target, int rank, int every,
                           boolean direct) {
        if (every < 1) {
            throw new IllegalArgumentException(level + " interval every=" + every + " must be at least 1");
        }
        if (!source.job().equals(target.job())) {
            throw new IllegalArgumentException("source job=" + source.job() + " differs from target job="
                    + target.job());
        }
        this.level = level;
        this.source = source;
        this.target = target;
        this.rank = rank;
        this.every = every;
        this.direct = direct;
    }

    @Override
    public String level() {
        return level;
    }

    @Override
    public int every() {
        return every;
    }

    /** One stage, "copy": the version composed from its L1 chain and written to the level as a full checkpoint. */
    @Override
    public List<DrainStage> stages() {
        return List.of(DrainStage.of("copy", version -> ChainComposer.composeFull(source, target, version, rank,
                direct)));
    }
}
