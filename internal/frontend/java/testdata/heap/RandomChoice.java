package randomchoice;

import java.util.Random;

// JPF's Rand example without its printing: java.util.Random's numbers are
// every value (JPF's cg.enumerate_random), so the division by zero for
// a = 1, b = 0 (or a = 0, b = 2) is found: ArithmeticException, a
// violation.
public class RandomChoice {
    public static void main(String[] args) {
        Random random = new Random(42);
        int a = random.nextInt(2);
        int b = random.nextInt(3);
        int c = a / (b + a - 2); // fails here
        assert c <= 1 || random.nextBoolean() || !random.nextBoolean();
    }
}
