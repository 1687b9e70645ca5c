package dev.lazarus.npb.testing;

import dev.lazarus.easycrash.DataObject;
import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.easycrash.RecomputingRun;
import dev.lazarus.mpi.testing.ThreadComm;
import dev.lazarus.verification.Verdict;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A crash that leaves data in a rank's persistent heap changed, and the relaunch that resumes from it, on thread
 * ranks: the application runs until iteration {@code crashIteration} is about to start (the bookmark then names that
 * iteration and the data hold the end of the one before, as a crash between iterations leaves them), one rank's
 * {@link Damage} changes its heap, every rank "dies", and a second run of the same job resumes from NVM. The verdict
 * of the resumed run's acceptance check is kept apart from the relaunch's outcome, because a rejected resumed run
 * rolls back and verifies again.
 */
public final class DamagedRestart {
    private DamagedRestart() {
    }

    /** What the crash leaves changed in the heap, given its objects by name. */
    @FunctionalInterface
    public interface Damage {
        void apply(Map<String, DataObject> objects);
    }

    /** No damage: the crash leaves the heap as it was (the control case). */
    public static final Damage NONE = objects -> { };

    /** XORs byte {@code byteOffset} of object {@code object} with {@code mask} (byte 0 is element 0's lowest). */
    public static Damage flipByte(String object, long byteOffset, int mask) {
        return objects -> {
            DataObject target = objects.get(object);
            if (target == null) {
                throw new IllegalArgumentException("object=" + object + " is not in the heap " + objects.keySet());
            }
            byte old = target.segment().get(ValueLayout.JAVA_BYTE, byteOffset);
            target.segment().set(ValueLayout.JAVA_BYTE, byteOffset, (byte) (old ^ mask));
        };
    }

    /**
     * One rank's view of the relaunch.
     *
     * @param resumedVerdict what the acceptance check said of the run resumed from NVM
     * @param outcome        how the relaunch ended (after a rollback if the resumed run was rejected)
     */
    public record Relaunch(Verdict resumedVerdict, RecomputingRun.Outcome outcome) {
    }

    /**
     * Crashes job {@code job} of the application before iteration {@code crashIteration} with {@code damage} done on
     * rank {@code damagedRank}, then relaunches it.
     *
     * @return each rank's view of the relaunch, in rank order
     */
    public static List<Relaunch> run(Path nvm, String job, int ranks, Supplier<RecomputableApplication> application,
                                     String[] args, int crashIteration, int damagedRank, Damage damage)
            throws Exception {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        List<Boolean> crashed = ThreadComm.run(ranks, comm -> {
            Recomputable app = application.get().prepare(comm, args);
            Damage mine = comm.rank() == damagedRank ? damage : NONE;
            try {
                RecomputingRun.run(comm, new CrashingBefore(app, crashIteration, mine), TestNvm.settings(nvm, job),
                        null, quiet);
                return false;
            } catch (SimulatedCrash expected) {
                return true;
            }
        });
        if (!crashed.equals(Collections.nCopies(ranks, true))) {
            throw new IllegalStateException("job=" + job + " crashed on ranks " + crashed + ", not on all");
        }
        return ThreadComm.run(ranks, comm -> {
            VerdictRecorder recorder = new VerdictRecorder(application.get().prepare(comm, args));
            RecomputingRun.Outcome outcome = RecomputingRun.run(comm, recorder, TestNvm.settings(nvm, job), null,
                    quiet);
            return new Relaunch(recorder.verdicts.getFirst(), outcome);
        });
    }

    /** Stands for the crash: it leaves the main loop without the heap being released, as a killed process would. */
    private static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(int iteration) {
            super("simulated crash before iteration " + iteration);
        }
    }

    /** Damages the heap and crashes when iteration {@code at} is about to run. */
    private static final class CrashingBefore extends DelegatingRecomputable {
        private final int at;
        private final Damage damage;

        CrashingBefore(Recomputable app, int at, Damage damage) {
            super(app);
            this.at = at;
            this.damage = damage;
        }

        @Override
        public void iterate(int iteration, EasyCrash easyCrash) {
            if (iteration == at) {
                damage.apply(easyCrash.heap().objects());
                throw new SimulatedCrash(iteration);
            }
            app.iterate(iteration, easyCrash);
        }
    }

    /** Keeps every verdict the application's acceptance check returns, in order. */
    private static final class VerdictRecorder extends DelegatingRecomputable {
        final List<Verdict> verdicts = new ArrayList<>();

        VerdictRecorder(Recomputable app) {
            super(app);
        }

        @Override
        public Verdict verify() {
            Verdict verdict = app.verify();
            verdicts.add(verdict);
            return verdict;
        }
    }
}
