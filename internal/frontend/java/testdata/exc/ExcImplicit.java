package excimplicit;

import gov.nasa.jpf.vm.Verify;

// The JVM's own exceptions caught: an index out of bounds, a failed
// cast, a negative array size, a call on null, and throw null.
public class ExcImplicit {
    static class Shape {
        int area() {
            return 1;
        }
    }

    static class Square extends Shape {
        int area() {
            return 4;
        }
    }

    static int caught;

    static int element(int i) {
        int[] a = new int[2];
        try {
            return a[i];
        } catch (ArrayIndexOutOfBoundsException e) {
            caught++;
            return -1;
        }
    }

    static int cast(Shape s) {
        try {
            Square q = (Square) s;
            return q.area();
        } catch (ClassCastException e) {
            caught++;
            return 0;
        }
    }

    static int make(int n) {
        try {
            return new int[n].length;
        } catch (NegativeArraySizeException e) {
            caught++;
            return 0;
        }
    }

    static int call(Shape s) {
        try {
            return s.area();
        } catch (NullPointerException e) {
            caught++;
            return 0;
        }
    }

    static void throwNull() {
        try {
            throw null;
        } catch (NullPointerException e) {
            caught++;
        }
    }

    public static void main(String[] args) {
        int i = Verify.getInt(1, 2);
        int r = element(i);
        assert (i == 2) == (r == -1);
        Shape s = new Shape();
        if (Verify.getBoolean()) {
            s = new Square();
        }
        int c = cast(s);
        assert c == 0 || c == 4;
        int m = make(Verify.getInt(-1, 0));
        assert m == 0;
        if (Verify.getBoolean()) {
            s = null;
        }
        int a = call(s);
        assert a == 0 || a == 1 || a == 4;
        throwNull();
        assert caught >= 1 && caught <= 5;
    }
}
