package strings;

// Strings stored and passed as objects: a constant is one interned object
// wherever it is used, a concatenation a new one; an exception's message
// through its constructor; an uncaught IllegalStateException("bad") is a
// violation (java -ea too).
public class Strings {
    static class Named {
        String name;
    }

    static class MyError extends RuntimeException {
        MyError(String message) {
            super(message);
        }
    }

    static String same(String s) {
        return s;
    }

    public static void main(String[] args) {
        Named a = new Named();
        Named b = new Named();
        a.name = "x";
        b.name = "x";
        int n = 4;
        Named c = new Named();
        c.name = "x" + n;
        assert a.name == b.name && c.name != a.name && same(a.name) == b.name && a.name != null;
        Object[] objs = new Object[2];
        objs[1] = "y";
        assert objs[0] == null && objs[1] != null;
        try {
            throw new MyError("mine");
        } catch (MyError e) {
            n++;
        }
        assert n == 5;
        throw new IllegalStateException("bad"); // fails here
    }
}
