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

    public static void main(String[] args) {
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
