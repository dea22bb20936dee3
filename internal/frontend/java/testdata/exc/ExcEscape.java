package excescape;

import gov.nasa.jpf.vm.Verify;

// An exception that a handler might catch but does not: it leaves main
// through the finally, uncaught, and the violation names its class.
public class ExcEscape {
    static int done;

    static RuntimeException pick(int x) {
        if (x == 0) {
            return new ArithmeticException();
        }
        return new IllegalStateException();
    }

    static void fail(int x) {
        throw pick(x);
    }

    public static void main(String[] args) {
        int x = Verify.getInt(0, 1);
        try {
            try {
                fail(x); // fails here
            } finally {
                done++;
            }
        } catch (ArithmeticException e) {
            assert x == 0;
        }
    }
}
