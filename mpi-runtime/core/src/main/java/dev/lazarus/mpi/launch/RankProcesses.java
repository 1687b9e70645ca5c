package dev.lazarus.mpi.launch;

import java.util.List;

/** Tells the JVMs that run ranks among a job's processes, for what kills one (the demo, tests). */
public final class RankProcesses {

    private RankProcesses() {
    }

    /**
     * A JVM that runs ranks: an Open MPI rank, or MPJ's MulticoreStarter (all ranks as threads). Not mpirun, nor
     * MPJ's starter.jar launcher: both name {@link RankMain} on their command lines, and killing either orphans ranks
     * that run on.
     */
    public static boolean isRankJvm(ProcessHandle process) {
        boolean java = process.info().command().map(c -> c.endsWith("/java")).orElse(false);
        // Read from /proc: ProcessHandle.Info's command line stops at a page, often before the main class.
        return java && ProcFiles.commandLine(process.pid()).map(c -> c.contains("MulticoreStarter")
                || (c.contains(RankMain.class.getSimpleName()) && !c.contains("starter.jar"))).orElse(false);
    }

    /** @return the rank JVMs among {@code root}'s descendants */
    public static List<ProcessHandle> under(ProcessHandle root) {
        return root.descendants().filter(RankProcesses::isRankJvm).toList();
    }
}
