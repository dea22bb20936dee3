// birch's stub of Java PathFinder's gov.nasa.jpf.vm.Verify, written for
// birch: a program that chooses its inputs with these methods compiles
// against it (birch check Main.java puts it on javac's source path when the
// program refers to Verify and brings no Verify of its own). birch does not
// run these bodies: its lowering makes each call a nondeterministic choice
// of the model (docs/java.md). Run by a plain JVM, they choose at random.
package gov.nasa.jpf.vm;

import java.util.concurrent.ThreadLocalRandom;

public class Verify {
    private Verify() {
    }

    /** A value between min and max (in either order, as JPF), each one a separate branch of the search. */
    public static int getInt(int min, int max) {
        if (min > max) {
            int t = min;
            min = max;
            max = t;
        }
        return ThreadLocalRandom.current().nextInt(min, max + 1);
    }

    /** false or true, each a branch of the search. */
    public static boolean getBoolean() {
        return ThreadLocalRandom.current().nextBoolean();
    }

    /** false or true; JPF's falseFirst orders the branches, birch explores both. */
    public static boolean getBoolean(boolean falseFirst) {
        return getBoolean();
    }

    /** A value of 0..max, as JPF's Verify.random. */
    public static int random(int max) {
        return getInt(0, max);
    }

    /** Ends the path where cond holds (JPF's search backtracks): birch ends the whole path. */
    public static void ignoreIf(boolean cond) {
        if (cond) {
            throw new IllegalStateException("Verify.ignoreIf: a path a model checker ignores");
        }
    }

    // The methods below are JPF's; birch's lowering does not model them, so
    // a program that calls one compiles and is reported inconclusive with
    // the call's position (docs/java.md) instead of failing to compile.

    /** JPF: run the following steps without interleaving. Not modelled by birch. */
    public static void beginAtomic() {
    }

    /** JPF: end of beginAtomic. Not modelled by birch. */
    public static void endAtomic() {
    }

    private static final int[] counters = new int[16];

    /** JPF: a counter kept along the path. Not modelled by birch. */
    public static int getCounter(int id) {
        return counters[id];
    }

    /** JPF: sets a counter kept along the path. Not modelled by birch. */
    public static void setCounter(int id, int val) {
        counters[id] = val;
    }

    /** JPF: prints along the path's output. Not modelled by birch. */
    public static void printPathOutput(String msg) {
        System.out.println(msg);
    }

    /** JPF: stores the trace and ends the search where cond holds. Not modelled by birch. */
    public static void storeTraceAndTerminateIf(boolean cond, String fileName, String comment) {
    }
}
