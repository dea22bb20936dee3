package jdata;

import gov.nasa.jpf.vm.Verify;

// examples/abstraction/decrement.bir in Java: y is always 1, but with x
// abstracted by signs, x - z of two positive values may have any sign:
// the abstract trail is not confirmed.
public class Decrement {
    public static void main(String[] args) {
        int x = Verify.getInt(2, 1000);
        int z = x - 1;
        int y = x - z;
        assert y > 0;
    }
}
