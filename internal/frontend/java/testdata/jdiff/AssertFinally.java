package assertfinally;

import gov.nasa.jpf.vm.Verify;

// Found by TestJDiffLong: the AssertionError of a failed assert is caught
// by a finally, catch AssertionError, Error or Throwable, here or in a
// caller, as in Java (it was a violation at once: a wrong verdict). Every
// assert of main holds: pass.
public class AssertFinally {
    static int n;

    static int swallow(int x) {
        try {
            assert x > 0 : "pos";
        } finally {
            return 7; // a return in a finally drops the AssertionError
        }
    }

    static int caught(int x) {
        try {
            assert x > 0;
            return 1;
        } catch (AssertionError e) {
            return 2;
        }
    }

    static void check(int x) {
        assert x > 0 : "pos";
    }

    static int caller(int x) {
        try {
            check(x);
            return 1;
        } catch (Error e) {
            return 2;
        } finally {
            n++;
        }
    }

    public static void main(String[] args) {
        int x = Verify.getInt(0, 1);
        assert swallow(x) == 7;
        assert caught(x) == 2 - x;
        assert caller(x) == 2 - x && n == 1;
    }
}
