package jcli;

import gov.nasa.jpf.vm.Verify;

// A division by an input that may be 0 (java_test.go: the choice of the
// value a local already had is shown).
public class Zero {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 2);
        int y = 10 / x;
    }
}
