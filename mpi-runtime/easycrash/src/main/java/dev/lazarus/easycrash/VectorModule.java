package dev.lazarus.easycrash;

/**
 * Whether this JVM resolved {@code jdk.incubator.vector} at start-up ({@code --add-modules jdk.incubator.vector}, which
 * the rank JVMs get): only then may {@link VectorLoops} be loaded. Kept apart from it so that asking does not load
 * the Vector API's classes.
 */
final class VectorModule {
    static final boolean PRESENT = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

    private VectorModule() {
    }
}
