package review;

// A virtual call of a void method with two possible targets (it was
// unsupported: " has the type void").
public class VoidCall {
    static int n;

    abstract static class S {
        abstract void f();
    }

    static class A extends S {
        void f() {
            n = 1;
        }
    }

    static class B extends S {
        void f() {
            n = 2;
        }
    }

    public static void main(String[] args) {
        S s = args.length == 0 ? new A() : new B();
        s.f();
        assert n == 1;
    }
}
