package mathconst;

import gov.nasa.jpf.vm.Verify;

// Found by TestJDiffLong: Math.abs, min and max of constants divide like
// any other value (a divisor Math.abs(0L) was bad input, exit 2).
public class MathConst {
    static long h(long q) {
        q *= 5L % Math.abs(0L); // fails here (for x == 1): ArithmeticException
        return q;
    }

    public static void main(String[] args) {
        int x = Verify.getInt(0, 1);
        int r = 0;
        try {
            r = x / Math.abs(0);
        } catch (ArithmeticException e) {
            r = 7;
        }
        assert r == 7;
        assert Math.max(3, Math.min(-2, 9)) == 3 && Math.min(-1L, Long.MIN_VALUE) == Long.MIN_VALUE;
        assert Math.abs(Integer.MIN_VALUE) == Integer.MIN_VALUE && Math.abs(-5L) == 5L;
        if (x == 1) {
            h(2);
        }
    }
}
