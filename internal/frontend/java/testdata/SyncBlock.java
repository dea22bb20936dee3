import gov.nasa.jpf.vm.Verify;

// A synchronized block (javac's handler releases the monitor and throws
// the exception on): the assert fails for one input.
public class SyncBlock {
    static final Object lock = new Object();
    static int counter;

    public static void main(String[] args) {
        int n = Verify.getInt(0, 2);
        synchronized (lock) {
            counter += n;
        }
        assert counter != 2 : "two";
    }
}
