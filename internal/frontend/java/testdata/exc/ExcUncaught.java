package excuncaught;

import gov.nasa.jpf.vm.Verify;

// For x == 2 check throws Bad, which no handler catches: a violation at
// the throw naming the class. x == 1 divides by zero, which main catches.
public class ExcUncaught {
    static class Bad extends RuntimeException {
    }

    static int check(int x) {
        if (x == 2) {
            throw new Bad(); // fails here
        }
        return 10 / (x - 1);
    }

    public static void main(String[] args) {
        int x = Verify.getInt(0, 3);
        try {
            check(x);
        } catch (ArithmeticException e) {
            assert x == 1;
        }
    }
}
