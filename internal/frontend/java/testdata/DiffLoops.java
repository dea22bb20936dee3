import gov.nasa.jpf.vm.Verify;

// A differential test program (differential_test.go).
public class DiffLoops {
    static int total;

    static int gcd(int x, int y) {
        return y == 0 ? x : gcd(y, x % y);
    }

    static int fib(int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    static void run(int n, int k) {
        for (int i = 0; i < n; i++) {
            total += i * k;
        }
        System.out.println("total " + total);
        switch (k) {
            case 1: System.out.println("one"); break;
            case 2: case 3: System.out.println("two or three"); break;
            case 100: System.out.println("hundred"); break;
            default: System.out.println("other " + k);
        }
        switch (n * 10) {
            case -10: System.out.println("minus ten");
            case 0: System.out.println("zero (or fell through)"); break;
            case 40: System.out.println("forty"); break;
            default: break;
        }
        System.out.println("gcd " + gcd(n * 6, k * 4 + 2) + " fib " + fib(n + 3));
        int m = n;
        do {
            m -= 2;
        } while (m > 0);
        System.out.println("m " + m);
        assert fib(n + 3) != 8 || k < 3;
        System.out.println("done");
    }

    public static void main(String[] args) {
        run(Verify.getInt(-1, 6), Verify.getInt(0, 5));
    }
}
