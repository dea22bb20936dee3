package ifacecast;

// An interface call on an object behind a cast from a class that does
// not implement the interface (a subclass's object does): the dispatch
// tests classes unrelated to the reference's, which BIR rejected as
// impossible instanceof tests. Every assertion holds: pass (java -ea too).
public class IfaceCast {
    interface I {
        int m();
    }

    static class A {
    }

    static class B extends A implements I {
        public int m() { return 1; }
    }

    static class D0 {
    }

    static class D extends D0 {
    }

    static class D1 extends D implements I {
        public int m() { return 2; }
    }

    public static void main(String[] args) {
        A a = new B();
        I d = new D1();
        int x = ((I) a).m() + d.m();
        assert x == 3;
        System.out.println(x);
    }
}
