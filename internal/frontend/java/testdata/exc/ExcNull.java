package excnull;

import gov.nasa.jpf.vm.Verify;

// No handler catches the NullPointerException of b.v: BIR's own null
// dereference, which Describe names as Java's exception.
public class ExcNull {
    static class Box {
        int v;
    }

    public static void main(String[] args) {
        Box b = null;
        if (Verify.getBoolean()) {
            b = new Box();
        }
        int x = b.v; // fails here
        assert x == 0;
    }
}
