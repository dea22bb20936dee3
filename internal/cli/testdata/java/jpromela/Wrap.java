package jpromela;

import gov.nasa.jpf.vm.Verify;

// int, short, byte and char arithmetic at the edges (spin_java_test.go):
// every assertion holds in birch and in SPIN.
public class Wrap {
    public static void main(String[] args) {
        int x = Verify.getInt(-2, 2);
        int min = Integer.MAX_VALUE + x - x + 1;
        assert min == Integer.MIN_VALUE && min / -1 == min && -min == min;
        assert (x * 0x40000000) == (x << 30);
        assert (min >>> (31 + x - x)) == 1 && (-1 + x - x) >>> 28 == 15;
        int h = x * 31 + min;
        h ^= h >>> 16;
        assert (h & 0x7fffffff) >= 0;
        byte b = (byte) (127 + x + 1 - x);
        short s = (short) (32767 + x - x + 1);
        char c = (char) (x - x - 1);
        c++;
        assert b == -128 && s == -32768 && c == 0;
        assert (x ^ x) == 0 && (x | ~x) == -1 && (-16 + x - x) >> 2 == -4;
    }
}
