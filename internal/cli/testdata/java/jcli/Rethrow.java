package jcli;

import gov.nasa.jpf.vm.Verify;

// An exception made in one method, caught in its caller and thrown on
// for one input (java_test.go: found uncaught at the rethrow, created in
// parse).
public class Rethrow {
    static int parse(int x) {
        if (x > 1) {
            throw new IllegalStateException("too big");
        }
        return x;
    }

    static int safe(int x) {
        try {
            return parse(x);
        } catch (IllegalStateException e) {
            if (x == 3) {
                throw e;
            }
            return 0;
        }
    }

    public static void main(String[] args) {
        int v = safe(Verify.getInt(0, 3));
        assert v >= 0;
    }
}
