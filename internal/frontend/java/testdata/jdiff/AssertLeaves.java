package assertleaves;

import gov.nasa.jpf.vm.Verify;

// An AssertionError that a finally lets go on is uncaught after the
// finally has run (Java prints "finally" first).
public class AssertLeaves {
    static int n;

    static void k(int x) {
        try {
            assert x > 0 : "k";
        } finally {
            n++;
            System.out.println("finally");
        } // fails here (for x == 0): AssertionError
    }

    public static void main(String[] args) {
        int x = Verify.getInt(0, 1);
        k(x);
        assert n == 1;
    }
}
