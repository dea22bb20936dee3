package review;

// Live sets and exception handlers: the handler reads x, which the block
// of the try range writes only after the call that throws. The JVM passes.
public class Live {
    static int f(int k) {
        if (k == 1) {
            throw new IllegalStateException();
        }
        return k + 100;
    }

    // the finally's copy on the exceptional path reads r
    static int h(int k) {
        int r = 7;
        try {
            r = 8;
            if (k > 0) {
                r = f(k) + 20;
            }
        } finally {
            if (k == 1) {
                assert r == 8 : "the finally sees r reset";
            }
        }
        return r;
    }

    public static void main(String[] args) {
        int y = 3;
        try {
            y = h(args.length + 1);
        } catch (IllegalStateException e) {
            y = 4;
        }
        assert y == 4;
        int x = 5;
        int k = args.length + 1;
        try {
            if (k >= 0) {
                x = f(k);
            }
        } catch (IllegalStateException e) {
            assert x == 5 : "x was reset";
        }
    }
}
