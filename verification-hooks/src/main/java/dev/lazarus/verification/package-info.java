/**
 * Acceptance verification: the application's own judgement of whether a result counts. NVM restart (EasyCrash) runs
 * it after recomputing from what survived a crash, and rolls back when it rejects. The package root holds the API
 * ({@link dev.lazarus.verification.Verdict}, {@link dev.lazarus.verification.AcceptanceCheck}); the built-in checks
 * live in {@code checks}. This module depends on nothing in-house.
 */
package dev.lazarus.verification;
