import gov.nasa.jpf.vm.Verify;

// A differential test program (differential_test.go): nested classes and
// their static initializers, mutual recursion, nested conditions and
// ternaries, labeled loops, compound assignments on narrow types, char
// arithmetic and switches on chars.
public class DiffMisc {
    static class Counter {
        static int count = 40;
        static long scale;

        static {
            scale = count * 3L;
        }

        static int next(int by) {
            count += by;
            return count;
        }
    }

    static boolean isEven(int n) {
        return n == 0 ? true : isOdd(n - 1);
    }

    static boolean isOdd(int n) {
        return n == 0 ? false : isEven(n - 1);
    }

    static int pick(int a, int b, boolean c) {
        return c ? (a > b ? a - b : b - a) : (a == b ? 0 : a + b > 0 ? 1 : -1);
    }

    static void run(int a, int b) {
        System.out.println("even " + isEven(a < 0 ? -a : a) + " odd " + isOdd(b < 0 ? -b : b));
        System.out.println(pick(a, b, true) + " " + pick(a, b, false) + " " + pick(b, b, false));
        System.out.println(Counter.next(a) + " " + Counter.scale);
        byte by = (byte) a;
        by += 100;
        by *= 3;
        short sh = (short) (b * 1000);
        sh -= 30000;
        char ch = 'a';
        ch += a;
        ch++;
        System.out.println(by + " " + sh + " " + (int) ch);
        switch (ch) {
            case 'a': System.out.println("char a"); break;
            case 'c': case 'd': System.out.println("char c or d"); break;
            default: System.out.println("another char " + (ch - 'a'));
        }
        int found = -1;
        outer:
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                if (i * j == a * b) {
                    found = i * 10 + j;
                    break outer;
                }
                if (j > i) {
                    continue outer;
                }
            }
        }
        System.out.println("found " + found);
        boolean p = a > 0 && b > 0 || a < 0 && b < 0;
        boolean q = !(a == b) ^ (a > b);
        System.out.println(p + " " + q + " " + (p & q) + " " + (p | q));
        int x = a;
        x = x++ + ++x;
        int y = b;
        y = y-- - --y;
        System.out.println(x + " " + y);
        long l = a;
        for (int i = 0; i < 40; i++) {
            l = l * 3 + b;
        }
        System.out.println(l + " " + (l < 0));
        assert found != 12 : "twelve";
        System.out.println("end");
    }

    public static void main(String[] args) {
        run(Verify.getInt(-3, 3), Verify.getInt(-2, 4));
    }
}
