import gov.nasa.jpf.vm.Verify;

// Conditional branches, switches and loops; every assert holds.
public class Branches {
    static int classify(int v) {
        switch (v) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            default: return -1;
        }
    }

    static int sparse(int v) {
        switch (v) {
            case -100: return 1;
            case 7: return 2;
            case 1000: return 3;
            default: return 0;
        }
    }

    static boolean between(int v, int lo, int hi) {
        return lo <= v && v <= hi;
    }

    public static void main(String[] args) {
        int a = Verify.getInt(-2, 4);
        boolean flag = Verify.getBoolean();
        int sum = 0;
        for (int i = 0; i < a; i++) {
            sum += i;
        }
        assert a <= 0 ? sum == 0 : sum == a * (a - 1) / 2;
        int n = 0;
        while (n * n < 10) {
            n++;
        }
        assert n == 4;
        int c = classify(a);
        if (a >= 0 && a <= 3) {
            assert c == 10 + a;
        } else {
            assert c == -1;
        }
        assert sparse(a * 50) == (a == -2 ? 1 : 0);
        assert between(a, -2, 4);
        assert !between(a, 5, 6);
        if (flag) {
            n = -n;
        }
        assert flag == (n < 0);
        assert a != 3 || a > 2;
        assert a == 3 || a != 3;
        int k = flag ? a : -a;
        assert k == a || k == -a;
        long big = (long) a * 1000000000000L;
        assert big > 0 == a > 0;
        assert big >= 0 == a >= 0;
        assert big < 1 == a < 1;
        do {
            n++;
        } while (n < 100);
        assert n == 100;
    }
}
