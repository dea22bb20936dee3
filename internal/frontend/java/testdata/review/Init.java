package review;

// Static initializers: birch runs them before main, the JVM at a class's
// first use (review of issue 23). The JVM passes every one of these.

// The main class's initializer reads D.y: the JVM initializes D first.
public class Init {
    static int z = D.y * 2;

    public static void main(String[] args) {
        assert z == 8;
        assert Pure.p.v == 3 && Pure.a[2] == 3 && Pure.lock != null;
    }
}

class D {
    static int y = 4;
}

// A self-contained initializer: it runs early in birch, unobservably.
class Pure {
    static final Object lock = new Object();
    static P p = new P(3);
    static int[] a = {1, 2, 3};
}

class P {
    int v;

    P(int v) {
        this.v = v;
    }
}

// A's initializer reads B.y: the JVM initializes B first.
class InitRead {
    public static void main(String[] args) {
        assert A.x == 6;
    }
}

class A {
    static int x = B.y + 1;
}

class B {
    static int y = 5;
}

// C's initializer reads InitLate.x after main wrote it.
class InitLate {
    static int x;

    public static void main(String[] args) {
        x = 5;
        assert C.y == 5;
    }
}

class C {
    static int y = InitLate.x;
}

// E's initializer writes InitSide.x at E's first use, not before main.
class InitSide {
    static int x;

    public static void main(String[] args) {
        assert x == 0;
        E.g();
        assert x == 7;
    }
}

class E {
    static {
        InitSide.x = 7;
    }

    static void g() {
    }
}

// F's initializer fails (an index beyond its array), but main uses F only
// when the input is 1 and catches what the first use throws: the JVM
// passes, as it initializes F only at that use. Run before main, the
// initializer failed on every path.
class InitThrows {
    public static void main(String[] args) {
        int k = gov.nasa.jpf.vm.Verify.getInt(0, 1);
        if (k == 1) {
            try {
                int v = F.a[0];
            } catch (Throwable t) {
            }
        }
    }
}

class F {
    static int[] a = new int[2];
    static {
        a[2] = 1;
    }
}

// G divides by a static it sets itself: a division that may fail, so its
// initializer may not run early either.
class InitDivides {
    public static void main(String[] args) {
        assert G.q == 0 || G.q != 0;
    }
}

class G {
    static int d = 0;
    static int q = 1;
    static {
        if (d != 0) {
            q = 10 / d;
        }
    }
}
