// birch's stub of SV-COMP's org.sosy_lab.sv_benchmarks.Verifier, written
// for birch: a program that reads its inputs with these methods compiles
// against it (birch check Main.java puts it on javac's source path when the
// program refers to Verifier and brings no Verifier of its own). birch does
// not run these bodies: its lowering makes each nondet call an unbounded
// input of the model and assume(c) an assumption (docs/java.md). Run by a
// plain JVM, the inputs are random and a false assumption ends the run.
package org.sosy_lab.sv_benchmarks;

import java.util.concurrent.ThreadLocalRandom;

public final class Verifier {
    private Verifier() {
    }

    /** Only the executions where c holds count. */
    public static void assume(boolean c) {
        if (!c) {
            Runtime.getRuntime().halt(0);
        }
    }

    public static boolean nondetBoolean() {
        return ThreadLocalRandom.current().nextBoolean();
    }

    public static byte nondetByte() {
        return (byte) ThreadLocalRandom.current().nextInt();
    }

    public static char nondetChar() {
        return (char) ThreadLocalRandom.current().nextInt();
    }

    public static short nondetShort() {
        return (short) ThreadLocalRandom.current().nextInt();
    }

    public static int nondetInt() {
        return ThreadLocalRandom.current().nextInt();
    }

    public static long nondetLong() {
        return ThreadLocalRandom.current().nextLong();
    }
}
