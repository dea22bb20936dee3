import gov.nasa.jpf.vm.Verify;

// Java's integer arithmetic, wrapping exactly: every assert holds.
public class Arith {
    public static void main(String[] args) {
        int x = Verify.getInt(-3, 3);
        int max = Integer.MAX_VALUE + x - x;
        int min = max + 1;
        assert min == Integer.MIN_VALUE;
        assert min / -1 == min;
        assert min % -1 == 0;
        assert -min == min;
        assert (x * 0x40000000) == (x << 30);
        assert (-7 + x - x) / 2 == -3;
        assert (-7 + x - x) % 2 == -1;
        assert (-16 + x - x) >> 2 == -4;
        assert (-1 + x - x) >>> 28 == 15;
        assert (-1 + x - x) >>> (32 + x - x) == -1;
        assert (1 << (33 + x - x)) == 2;
        long l = Long.MAX_VALUE + x - x;
        long lmin = l + 1;
        assert lmin == Long.MIN_VALUE;
        assert lmin * -1 == lmin;
        assert (-1L + x - x) >>> 60 == 15L;
        assert (-1L + x - x) >>> (64 + x - x) == -1L;
        assert lmin >>> 63 == 1;
        assert (lmin >> 63) == -1;
        assert (int) (l + x) == (int) l + x;
        byte b = (byte) (127 + x + 1 - x);
        assert b == -128;
        short s = (short) (32767 + x - x + 1);
        assert s == -32768;
        char c = (char) (x - x - 1);
        assert c == 65535;
        c++;
        assert c == 0;
        assert (x & 1) == (x % 2 == 0 ? 0 : 1) || x < 0;
        assert (x | -x) <= 0;
        assert (x ^ x) == 0;
        long m = x;
        assert m * m < 10L;
        assert lmin / (-1L + x - x) == lmin;
        assert lmin % (-1L + x - x) == 0;
        System.out.println("x = " + x + ", max = " + max + ", min = " + min);
    }
}
