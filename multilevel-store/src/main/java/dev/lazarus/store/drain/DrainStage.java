package dev.lazarus.store.drain;

import java.io.IOException;
import java.util.List;

/**
 * One step of a version's way from L1 to a level, as the papers' checkpointing core chains them: hash, [delta],
 * [compress], encode, transfer. A level is the list of its stages ({@link DrainTarget#stages()}); a stage added later
 * (AIC's delta, mcrEngine's typed compression) goes into that list and touches nothing else.
 */
public interface DrainStage {

    /** @return the stage's name in results and logs: "copy", "encode", "delta" */
    String name();

    /**
     * Runs the stage on one version.
     *
     * @param earlier the outcomes of the stages before it in this drain, in order (all done or skipped)
     * @return done with the bytes it wrote to the level, skipped with the reason (nothing to do), or failed with the
     *         reason; a failed stage ends the drain, and the level keeps what it had
     * @throws IOException like a failed outcome, with the exception's message as the reason
     */
    StageOutcome run(long version, List<StageOutcome> earlier) throws IOException;

    /**
     * @return a stage named {@code name} that does {@code work} and is done with the bytes it returns (a failure is an
     *         exception)
     */
    static DrainStage of(String name, DrainAgent.OneOffDrain work) {
        return new DrainStage() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public StageOutcome run(long version, List<StageOutcome> earlier) throws IOException {
                return StageOutcome.done(name, work.drain(version));
            }
        };
    }
}
