package constlength;

import gov.nasa.jpf.vm.Verify;

// Constant array lengths outside 0..--max-array-length (BIR rejects such a
// constant in a model): beyond the bound a limit, negative a
// NegativeArraySizeException (a violation).
public class ConstLength {
    static int[] big() {
        int[] a = new int[10];
        a[9] = 1;
        return a;
    }

    public static void main(String[] args) {
        if (Verify.getBoolean()) {
            big();
        } else {
            long[][] b = new long[2][-2]; // fails here
        }
    }
}
