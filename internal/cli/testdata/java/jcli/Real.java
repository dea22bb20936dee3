package jcli;

// Floating point, which birch does not lower (java_test.go: inconclusive,
// with the position).
public class Real {
    static int seven() {
        return 7;
    }

    public static void main(String[] args) {
        double d = seven() + 0.5;
        assert d > 0;
    }
}
