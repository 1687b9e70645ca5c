package dev.lazarus.mpi.launch;

import dev.lazarus.mpi.MpiApplication;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Finds an {@link MpiApplication} by its {@link MpiApplication#name() name} among the registered ones, or by its
 * fully qualified class name.
 */
public final class ApplicationCatalog {
    private final ClassLoader loader;

    public ApplicationCatalog(ClassLoader loader) {
        this.loader = loader;
    }

    /** Names of the registered applications, sorted. */
    public List<String> names() {
        return ServiceLoader.load(MpiApplication.class, loader).stream()
                .map(p -> p.get().name()).sorted().toList();
    }

    /**
     * Instantiates the application called {@code nameOrClass}.
     *
     * @throws IllegalArgumentException with a one-line message when there is no such application, or the class is
     *                                  not an {@code MpiApplication}, or it cannot be instantiated
     */
    public MpiApplication resolve(String nameOrClass) {
        if (nameOrClass == null || nameOrClass.isBlank()) {
            throw new IllegalArgumentException("no application given");
        }
        for (ServiceLoader.Provider<MpiApplication> provider : ServiceLoader.load(MpiApplication.class, loader)
                .stream().toList()) {
            MpiApplication app = provider.get();
            if (app.name().equals(nameOrClass) || provider.type().getName().equals(nameOrClass)) {
                return app;
            }
        }
        Class<?> type;
        try {
            type = Class.forName(nameOrClass, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("unknown application '" + nameOrClass + "' (known: "
                    + String.join(", ", names()) + ")");
        }
        if (!MpiApplication.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("class " + nameOrClass + " does not implement "
                    + MpiApplication.class.getName());
        }
        try {
            return (MpiApplication) type.getConstructor().newInstance();
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException
                 | InvocationTargetException | LinkageError e) {
            throw new IllegalArgumentException("cannot instantiate application class " + nameOrClass + ": " + e);
        }
    }
}
