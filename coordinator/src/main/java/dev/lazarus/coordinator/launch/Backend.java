package dev.lazarus.coordinator.launch;

/** The MPI implementations Lazarus can launch ranks with. */
public enum Backend {
    /** Open MPI 4.1 through its Java bindings; one process per rank, local or on hosts from a host file. */
    OPENMPI("openmpi"),
    /** MPJ Express 0.44, multicore device: all ranks are threads of one JVM on this node. */
    MPJ("mpj");

    private final String id;

    Backend(String id) {
        this.id = id;
    }

    /** The name used on the command line and in module paths. */
    public String id() {
        return id;
    }

    @Override
    public String toString() {
        return id;
    }

    /**
     * The backend called {@code name}, case-insensitively.
     *
     * @throws IllegalArgumentException naming the accepted names
     */
    public static Backend parse(String name) {
        for (Backend backend : values()) {
            if (backend.id.equalsIgnoreCase(name)) {
                return backend;
            }
        }
        throw new IllegalArgumentException("expected openmpi or mpj but was '" + name + "'");
    }
}
