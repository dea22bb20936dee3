package jcli;

import gov.nasa.jpf.vm.Verify;

// A program whose assertion holds for every input (java_test.go).
public class Fine {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 3);
        assert x * 2 <= 6;
    }
}
