package excmessage;

import gov.nasa.jpf.vm.Verify;

// An uncaught exception built with a constant message: the violation's
// message keeps it, as the JVM prints it.
public class ExcMessage {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 2);
        if (x == 2) {
            throw new IllegalStateException("x reached 2"); // fails here
        }
    }
}
