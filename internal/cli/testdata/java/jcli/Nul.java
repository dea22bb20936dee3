package jcli;

import gov.nasa.jpf.vm.Verify;

// A NullPointerException for one input, thrown in a method the main
// method calls (java_test.go: the uncaught exception and where).
public class Nul {
    static class Box {
        int value;
    }

    static Box make(boolean b) {
        if (b) {
            return new Box();
        }
        return null;
    }

    static void put(Box b, int v) {
        b.value = v;
    }

    public static void main(String[] args) {
        Box b = make(Verify.getBoolean());
        put(b, 1);
    }
}
