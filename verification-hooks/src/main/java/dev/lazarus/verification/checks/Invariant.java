package dev.lazarus.verification.checks;

import dev.lazarus.verification.AcceptanceCheck;
import dev.lazarus.verification.Verdict;

import java.util.function.Predicate;

/** Accepts a result for which a named property holds, such as "keys are sorted" or "mass is conserved". */
public final class Invariant<R> implements AcceptanceCheck<R> {
    private final String name;
    private final Predicate<? super R> property;

    public Invariant(String name, Predicate<? super R> property) {
        this.name = name;
        this.property = property;
    }

    @Override
    public Verdict verify(R result) {
        return property.test(result) ? Verdict.accept(name + " holds") : Verdict.reject(name + " violated");
    }
}
