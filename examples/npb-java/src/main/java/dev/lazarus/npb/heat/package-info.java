/**
 * A steady-state heat (Poisson) solver by red-black successive over-relaxation: an iterative solver of the kind
 * EasyCrash targets, with an acceptance verification from a manufactured exact solution.
 */
package dev.lazarus.npb.heat;
