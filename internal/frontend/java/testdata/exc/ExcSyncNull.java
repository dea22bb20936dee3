package excsyncnull;

import gov.nasa.jpf.vm.Verify;

// A NullPointerException in a synchronized block that nothing catches:
// javac's handler of the block only releases the monitor and rethrows, so
// it stays BIR's own null dereference, a violation at the access.
public class ExcSyncNull {
    static final Object lock = new Object();

    static class Box {
        int v;
    }

    public static void main(String[] args) {
        Box b = null;
        if (Verify.getBoolean()) {
            b = new Box();
        }
        synchronized (lock) {
            b.v = 1; // fails here
        }
    }
}
