package longarray;

import gov.nasa.jpf.vm.Verify;

// An array longer than --max-array-length (8 by default) for one input:
// a bound of the model, so the check is inconclusive (exit 3), never a
// violation (the program itself is correct).
public class LongArray {
    public static void main(String[] args) {
        int n = Verify.getInt(1, 10);
        int[] a = new int[n];
        a[n - 1] = n;
        assert a[a.length - 1] == n;
    }
}
