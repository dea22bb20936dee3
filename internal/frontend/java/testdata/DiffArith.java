import gov.nasa.jpf.vm.Verify;

// A differential test program (differential_test.go): run's prints and
// failures under birch's explicit semantics must be java -ea's.
public class DiffArith {
    static void run(int a, int b) {
        int q = a * 1000003;
        System.out.println("q=" + q + " sum=" + (a + b) + " prod=" + (a * b * 65537 * 65537));
        System.out.println(a << b);
        System.out.println(a >> (b & 7));
        System.out.println(a >>> b);
        System.out.println((byte) (a * 77) + " " + (short) (a * 40000) + " " + (int) (char) (a * 3000));
        long l = (long) a * Integer.MAX_VALUE * b;
        System.out.println(l + " " + (l >>> 3) + " " + (l >> 61) + " " + (l << b) + " " + (int) l);
        System.out.println(Long.MIN_VALUE / (b == 0 ? -1 : b) + " " + Long.MIN_VALUE % (b == 0 ? -1 : b));
        System.out.println(a < b);
        boolean big = l > 1000000000000L;
        System.out.println(big + " " + (l <= 0));
        int r = 100 % b;
        System.out.println(a / b + " " + r);
        assert r != 4 : "remainder four";
        System.out.println("end");
    }

    public static void main(String[] args) {
        run(Verify.getInt(-5, 5), Verify.getInt(-3, 8));
    }
}
