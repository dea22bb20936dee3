package arrayasobject;

// Arrays where an object reference is expected: birch keeps arrays and
// objects apart, so each is reported unsupported at its line (the check
// is inconclusive, never a guess).
public class ArrayAsObject {
    Object field;

    static int count(Object o) {
        return o == null ? 0 : 1;
    }

    static int asArgument() {
        return count(new int[2]); // unsupported here
    }

    static void inField() {
        ArrayAsObject a = new ArrayAsObject();
        a.field = new long[1]; // unsupported here
    }

    static void inObjectArray() {
        Object[] objs = new Object[1];
        objs[0] = new char[1]; // unsupported here
    }

    public static void main(String[] args) {
        asArgument();
        inField();
        inObjectArray();
    }
}
