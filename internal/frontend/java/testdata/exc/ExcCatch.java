package exccatch;

import gov.nasa.jpf.vm.Verify;

// A NullPointerException caught where it happens, and an
// ArithmeticException caught as a RuntimeException: both pass; a catch
// of an exception outside birch's model catches nothing.
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

    // declares an exception outside the model that it never throws
    static int io(int x) throws java.io.IOException {
        return 12 / x;
    }

    static int quiet(int x) {
        try {
            return io(x);
        } catch (java.io.IOException e) {
            return -2;
        }
    }

    public static void main(String[] args) {
        assert quiet(Verify.getInt(1, 2)) > 0;
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
