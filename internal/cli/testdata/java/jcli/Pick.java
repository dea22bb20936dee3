package jcli;

import gov.nasa.jpf.vm.Verify;

// The Java command tests' program (java_test.go): an assertion that fails
// for one input of four, in a method of another class.
public class Pick {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 3);
        int y = Twice.of(x);
        Twice.check(y);
    }
}

class Twice {
    static int calls;

    static int of(int v) {
        calls++;
        return 2 * v;
    }

    static void check(int y) {
        assert y < 6 : "too big";
    }
}
