// RecursivePower.java: an assertion in a recursive method. pow2(k) computes 2^k by squaring
// 2^(k/2), doubling when k is odd, and asserts at every level that the result is positive.
// Java's int arithmetic wraps: for k = 31 the last doubling gives 2^31, which is
// Integer.MIN_VALUE, and the assertion of the outermost activation (after pow2(15), pow2(7),
// pow2(3), pow2(1) and pow2(0) have returned) fails; for k = 0..30 every level holds.
// k = Verify.getInt(0, 31): fail assert.
// expect: fail assert
import gov.nasa.jpf.vm.Verify;

public class RecursivePower {
    static int pow2(int k) {
        if (k == 0) {
            return 1;
        }
        int half = pow2(k / 2);
        int r = half * half;
        if (k % 2 == 1) {
            r = 2 * r;
        }
        assert r > 0 : "2^k does not fit in an int"; // fails here
        return r;
    }

    public static void main(String[] args) {
        int k = Verify.getInt(0, 31);
        int p = pow2(k);
        assert p == 1 << k;
    }
}
