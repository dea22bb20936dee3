// Prims: fields of every primitive type, constants, arithmetic of every
// integral width, string constants and concatenation.
public class Prims {
    static boolean sz = true;
    static byte sb = -3;
    static char sc = 'x';
    static short ss = -300;
    static int si = 100000;
    static long sl = 1L << 40;
    static float sf = 1.5f;
    static double sd = -2.25;
    static String sname = "prims";

    static final boolean CZ = true;
    static final byte CB = 7;
    static final char CC = '\u00e9';
    static final short CS = 1000;
    static final int CI = -123456789;
    static final long CL = 9000000000L;
    static final float CF = 3.25f;
    static final double CD = 1e100;
    static final String ESC = "tab\t nl\n cr\r q\" bs\\ ap' bell\u0007 del\u007f nbsp\u00a0 ls\u2028 ff\uffff bs\b fe\f c1\u0085";
    static final String CSTR = "con\u0000st \u20ac \ud83d\ude00";

    boolean z;
    byte b;
    char c;
    short s;
    int i;
    long l;
    float f;
    double d;
    Object o;
    int[] ints;
    volatile int vol;
    transient long tr;

    int ints(int x, int y) {
        int r = x + y - x * y / (y | 1) % 7;
        r = r << 3 >> 1 >>> 2;
        r &= 0xff;
        r |= 0x100;
        r ^= x;
        return -r;
    }

    long longs(long x, long y) {
        long r = x + y - x * y / (y | 1) % 7;
        r = r << 3 >> 1 >>> 2;
        r = r & 0xffffffffL | 5L ^ x;
        if (r > y) {
            return -r;
        }
        return r + Long.MAX_VALUE + Integer.MIN_VALUE;
    }

    char chars(char a) {
        char c2 = (char) (a + 1);
        c2++;
        return (char) (c2 * 2);
    }

    short shorts(short a, byte b2) {
        short x = (short) (a + b2);
        byte y = (byte) (x >> 2);
        x += y;
        return (short) -x;
    }

    int conversions(long a, int b2) {
        int i2 = (int) a;
        long l2 = b2;
        byte b3 = (byte) b2;
        short s3 = (short) a;
        char c3 = (char) b2;
        return i2 + (int) l2 + b3 + s3 + c3;
    }

    double floats(float a, double b2) {
        float x = a * 2.5f + 1;
        double y = b2 / 3.0 - x;
        if (x < y || y != y) {
            return (long) y + (int) x;
        }
        return -y % 2;
    }

    String concat(int n, char ch, long big, Object obj) {
        String s2 = "n=" + n + " ch=" + ch + " big=" + big + " obj=" + obj;
        return s2 + CSTR + sname;
    }

    int constants() {
        int a = -1 + 0 + 1 + 2 + 3 + 4 + 5;
        int bb = 6 + 127 + 128 + 32767 + 32768 - 129 - 32769;
        long la = 0L + 1L + 2L;
        return a + bb + (int) la + CI;
    }

    boolean compare(int a, int b2, Object x, Object y) {
        return a == b2 || a != b2 && a < b2 || a >= b2 && x == y || x != y && x == null || y != null;
    }

    int[] copy(int[] a) {
        return a.clone();
    }

    static int reassign(int x) {
        x = x * 2;
        return x;
    }

    static double mixed(long[] la, float[] fa, double[] da, int i, Prims a, Object b) {
        double d = 0.0;
        la[i] += 1;
        long t = la[0]++;
        long z = a.l = t;
        d += fa[i] + da[i] + z;
        float f = i;
        if (f > 1.0f) {
            d++;
        }
        if (f < 2.0f) {
            d--;
        }
        int k = (int) d;
        if (i > k) {
            k = i;
        }
        if (a == b) {
            k++;
        }
        return d + k;
    }
}
