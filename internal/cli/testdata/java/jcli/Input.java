package jcli;

import org.sosy_lab.sv_benchmarks.Verifier;

// An unbounded input (java_test.go): one value of 2^32 fails.
public class Input {
    public static void main(String[] args) {
        int x = Verifier.nondetInt();
        if (x == 123456) {
            assert false : "found it";
        }
    }
}
