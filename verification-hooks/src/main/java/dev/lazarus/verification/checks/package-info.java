/** Built-in acceptance checks: reference values with a relative tolerance, residual thresholds and invariants. */
package dev.lazarus.verification.checks;
