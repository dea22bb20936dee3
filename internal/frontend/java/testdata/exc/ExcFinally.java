package excfinally;

import gov.nasa.jpf.vm.Verify;

// finally runs when the try block completes and when it throws.
public class ExcFinally {
    static int count;

    static void work(int x) {
        try {
            if (x == 1) {
                throw new IllegalStateException();
            }
            count += 1;
        } finally {
            count += 10;
        }
    }

    public static void main(String[] args) {
        int x = Verify.getInt(0, 1);
        try {
            work(x);
        } catch (IllegalStateException e) {
            assert count == 10;
            return;
        }
        assert count == 11;
    }
}
