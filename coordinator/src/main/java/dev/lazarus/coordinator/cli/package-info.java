/**
 * The {@code ./lazarus} command line (picocli). Every bad input ends in one line on standard error and exit status 2;
 * a stack trace is shown only with {@code LAZARUS_DEBUG=1}.
 */
package dev.lazarus.coordinator.cli;
