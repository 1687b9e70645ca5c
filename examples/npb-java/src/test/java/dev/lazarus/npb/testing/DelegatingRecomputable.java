package dev.lazarus.npb.testing;

import dev.lazarus.easycrash.EasyCrash;
import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.verification.Verdict;

import java.util.List;

/** A {@link Recomputable} that hands every call to another one; tests override the calls they interpose on. */
public abstract class DelegatingRecomputable implements Recomputable {
    /** The application that does the work. */
    protected final Recomputable app;

    protected DelegatingRecomputable(Recomputable app) {
        this.app = app;
    }

    @Override
    public String application() {
        return app.application();
    }

    @Override
    public String signature() {
        return app.signature();
    }

    @Override
    public List<String> regions() {
        return app.regions();
    }

    @Override
    public long heapBytes() {
        return app.heapBytes();
    }

    @Override
    public void attach(EasyCrash easyCrash) {
        app.attach(easyCrash);
    }

    @Override
    public void initialize(boolean fresh) {
        app.initialize(fresh);
    }

    @Override
    public int iterations() {
        return app.iterations();
    }

    @Override
    public int maxIterations() {
        return app.maxIterations();
    }

    @Override
    public void iterate(int iteration, EasyCrash easyCrash) {
        app.iterate(iteration, easyCrash);
    }

    @Override
    public Verdict verify() {
        return app.verify();
    }
}
