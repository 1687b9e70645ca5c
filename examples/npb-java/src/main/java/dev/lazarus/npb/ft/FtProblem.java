package dev.lazarus.npb.ft;

import dev.lazarus.npb.common.ProblemClass;
import dev.lazarus.verification.Verdict;
import dev.lazarus.verification.checks.ReferenceValues;

/**
 * The NPB 3.4 FT problem classes: grid size, iteration count and the reference checksum of every iteration, copied
 * from NPB 3.3/3.4 ({@code ft.f}, subroutine {@code verify}, {@code csum_ref}).
 *
 * @param nx       grid size in x
 * @param ny       grid size in y
 * @param nz       grid size in z
 * @param niter    number of time steps
 * @param refReal  reference checksum real parts, index 0 = iteration 1
 * @param refImag  reference checksum imaginary parts, index 0 = iteration 1
 */
public record FtProblem(int nx, int ny, int nz, int niter, double[] refReal, double[] refImag) {

    /** NPB's verification tolerance: relative error of every checksum. */
    public static final double EPSILON = 1.0e-12;

    public FtProblem {
        if (refReal.length != niter || refImag.length != niter) {
            throw new IllegalArgumentException("niter=" + niter + " refReal=" + refReal.length
                    + " refImag=" + refImag.length + " must agree");
        }
        refReal = refReal.clone();
        refImag = refImag.clone();
    }

    /** Reference real parts (a copy). */
    @Override
    public double[] refReal() {
        return refReal.clone();
    }

    /** Reference imaginary parts (a copy). */
    @Override
    public double[] refImag() {
        return refImag.clone();
    }

    /** The official parameters of a class. */
    public static FtProblem of(ProblemClass problemClass) {
        return switch (problemClass) {
            case S -> new FtProblem(64, 64, 64, 6,
                    new double[] {5.546087004964e+02, 5.546385409189e+02, 5.546148406171e+02,
                        5.545423607415e+02, 5.544255039624e+02, 5.542683411902e+02},
                    new double[] {4.845363331978e+02, 4.865304269511e+02, 4.883910722336e+02,
                        4.901273169046e+02, 4.917475857993e+02, 4.932597244941e+02});
            case W -> new FtProblem(128, 128, 32, 6,
                    new double[] {5.673612178944e+02, 5.631436885271e+02, 5.594024089970e+02,
                        5.560698047020e+02, 5.530898991250e+02, 5.504159734538e+02},
                    new double[] {5.293246849175e+02, 5.282149986629e+02, 5.270996558037e+02,
                        5.260027904925e+02, 5.249400845633e+02, 5.239212247086e+02});
            case A -> new FtProblem(256, 256, 128, 6,
                    new double[] {5.046735008193e+02, 5.059412319734e+02, 5.069376896287e+02,
                        5.077892868474e+02, 5.085233095391e+02, 5.091487099959e+02},
                    new double[] {5.114047905510e+02, 5.098809666433e+02, 5.098144042213e+02,
                        5.101336130759e+02, 5.104914655194e+02, 5.107917842803e+02});
            case B -> new FtProblem(512, 256, 256, 20,
                    new double[] {5.177643571579e+02, 5.154521291263e+02, 5.146409228649e+02,
                        5.142378756213e+02, 5.139626667737e+02, 5.137423460082e+02,
                        5.135547056878e+02, 5.133910925466e+02, 5.132470705390e+02,
                        5.131197729984e+02, 5.130070319283e+02, 5.129070537032e+02,
                        5.128182883502e+02, 5.127393733383e+02, 5.126691062020e+02,
                        5.126064276004e+02, 5.125504076570e+02, 5.125002331720e+02,
                        5.124551951846e+02, 5.124146770029e+02},
                    new double[] {5.077803458597e+02, 5.088249431599e+02, 5.096208912659e+02,
                        5.101023387619e+02, 5.103976610617e+02, 5.105948019802e+02,
                        5.107404165783e+02, 5.108576573661e+02, 5.109577278523e+02,
                        5.110460304483e+02, 5.111252433800e+02, 5.111968077718e+02,
                        5.112616233064e+02, 5.113203605551e+02, 5.113735928093e+02,
                        5.114218460548e+02, 5.114656139760e+02, 5.115053595966e+02,
                        5.115415130407e+02, 5.115744692211e+02});
        };
    }

    /** Total grid points, NPB's ntotal. */
    public long ntotal() {
        return (long) nx * ny * nz;
    }

    /** The size as NPB prints it, e.g. {@code 64x64x64}. */
    public String sizeText() {
        return nx + "x" + ny + "x" + nz;
    }

    /** Largest supported rank count: the slabs need {@code np} to divide both ny and nz. */
    public int maxRanks() {
        return Math.min(ny, nz);
    }

    /** NPB's FT operation count per second in millions, for {@code seconds} of timed run. */
    public double mops(double seconds) {
        if (!(seconds > 0)) {
            return 0.0;
        }
        double n = ntotal();
        double logN = Math.log(n);
        return 1.0e-6 * n * (14.8157 + 7.19641 * logN + (5.23518 + 7.21113 * logN) * niter) / seconds;
    }

    /**
     * Checks the checksums of all iterations, real and imaginary parts each to relative error {@link #EPSILON}
     * (stricter than NPB's error of the complex value, and never "real or imaginary" as NPB3.0-JAV).
     *
     * @param sums interleaved (re, im) checksums; complex {@code t} is iteration {@code t}, entry 0 is unused
     */
    public Verdict verify(double[] sums) {
        if (sums.length < 2 * (niter + 1)) {
            return Verdict.reject("expected checksums for " + niter + " iterations, got " + (sums.length / 2 - 1));
        }
        String[] names = new String[2 * niter];
        double[] refs = new double[2 * niter];
        double[] values = new double[2 * niter];
        for (int t = 1; t <= niter; t++) {
            names[2 * t - 2] = "cksum[" + t + "].re";
            names[2 * t - 1] = "cksum[" + t + "].im";
            refs[2 * t - 2] = refReal[t - 1];
            refs[2 * t - 1] = refImag[t - 1];
            values[2 * t - 2] = sums[2 * t];
            values[2 * t - 1] = sums[2 * t + 1];
        }
        return new ReferenceValues(names, refs, EPSILON).verify(values);
    }
}
