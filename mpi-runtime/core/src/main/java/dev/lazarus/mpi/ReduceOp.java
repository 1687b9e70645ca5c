package dev.lazarus.mpi;

/** Reduction operators for {@link Comm#reduce} and {@link Comm#allreduce}. */
public enum ReduceOp {
    SUM,
    PROD,
    MAX,
    MIN
}
