package choice;

import gov.nasa.jpf.vm.Verify;

// The receiver's class depends on the input: only for Verify.getBoolean()
// true does the assertion fail (a violation; JPF finds it too).
interface Op { int apply(int x); }
class Inc implements Op { public int apply(int x) { return x + 1; } }
class Neg implements Op { public int apply(int x) { return -x; } }

public class Choice {
    public static void main(String[] args) {
        Op op;
        if (Verify.getBoolean()) {
            op = new Neg();
        } else {
            op = new Inc();
        }
        assert op.apply(3) > 0; // fails here
    }
}
