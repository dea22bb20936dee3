import gov.nasa.jpf.vm.Verify;

// Recursion, static fields and a static initializer; the assert in the
// recursive method fails for one input.
public class Recursion {
    static int calls;
    static long total = 5;
    static final int LIMIT;

    static {
        LIMIT = 6;
        total = total * 2;
    }

    static int fact(int n) {
        calls++;
        if (n <= 1) {
            return 1;
        }
        int r = n * fact(n - 1);
        assert r != 120 : "fact reached 120";
        return r;
    }

    public static void main(String[] args) {
        int n = Verify.getInt(0, LIMIT);
        assert total == 10;
        int f = fact(n);
        assert calls == (n <= 1 ? 1 : n);
        System.out.println("fact(" + n + ") = " + f);
    }
}
