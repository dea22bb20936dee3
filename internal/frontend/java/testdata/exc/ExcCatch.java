package exccatch;

import gov.nasa.jpf.vm.Verify;

// A NullPointerException caught where it happens, and an
// ArithmeticException caught as a RuntimeException: both pass.
public class ExcCatch {
    static class Box {
        int v;
    }

    static int read(Box b) {
        try {
            return b.v;
        } catch (NullPointerException e) {
            return -1;
        }
    }

    static int divide(int a, int b) {
        try {
            return a / b;
        } catch (RuntimeException e) {
            return 0;
        }
    }

    public static void main(String[] args) {
        Box b = null;
        if (Verify.getBoolean()) {
            b = new Box();
        }
        int r = read(b);
        assert r == 0 || r == -1;
        int d = divide(6, Verify.getInt(0, 2));
        assert d == 0 || d == 6 || d == 3;
    }
}
