/** What the NPB kernels share: the NPB random number generator, problem classes, argument parsing and the report. */
package dev.lazarus.npb.common;
