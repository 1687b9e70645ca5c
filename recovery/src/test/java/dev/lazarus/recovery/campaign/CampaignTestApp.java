package dev.lazarus.recovery.campaign;

import dev.lazarus.easycrash.Recomputable;
import dev.lazarus.easycrash.RecomputableApplication;
import dev.lazarus.mpi.Comm;

/** What a campaign test application needs besides its own loop: a name, and preparing is returning itself. */
abstract class CampaignTestApp implements RecomputableApplication, Recomputable {
    private final String name;

    CampaignTestApp(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int run(Comm comm, String[] args) {
        throw new UnsupportedOperationException("campaign tests only prepare this application");
    }

    @Override
    public final Recomputable prepare(Comm comm, String[] args) {
        return this;
    }

    @Override
    public final String application() {
        return name;
    }
}
