package jcli;

// A class without a main method (java_test.go).
public class NoMain {
    static int f() {
        return 1;
    }
}
