package jpromela;

import gov.nasa.jpf.vm.Verify;

// Java's int arithmetic wraps (spin_java_test.go): for x == 3, y + 1 is
// Integer.MIN_VALUE, and the assertion fails only through the wrap.
public class WrapFail {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 3);
        int y = Integer.MAX_VALUE - 3 + x;
        int z = y + 1;
        assert z > y : "wrapped";
    }
}
