package jcli;

import gov.nasa.jpf.vm.Verify;

// An array of up to ten elements: longer than birch's default bound of
// eight (java_test.go: --max-array-length).
public class Wide {
    public static void main(String[] args) {
        int n = Verify.getInt(6, 10);
        int[] a = new int[n];
        a[n - 1] = 1;
        assert a[n - 1] == 1;
    }
}
