package outsidemodel;

import java.util.ArrayList;

// Classes and methods outside birch's model of the Java library: each is
// reported unsupported at its line (the check is inconclusive, never a
// guess).
public class OutsideModel {
    static class Stack2 extends ArrayList<Integer> { // unsupported here
    }

    static int hash(Object o) {
        return o.hashCode(); // unsupported here
    }

    static void list() {
        new Stack2();
    }

    public static void main(String[] args) {
        list();
        int h = hash(new OutsideModel());
    }
}
