package printdiv;

import gov.nasa.jpf.vm.Verify;

// Found by TestJDiffLong: a division by zero in what println prints
// throws ArithmeticException, as Java does (BIR's println printed it as
// text and the program went on: birch passed).
public class PrintDiv {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 1);
        long y = x;
        System.out.println("q " + (7L / (y + 1)) + " " + (x > 0));
        System.out.println("r " + (5 % x)); // fails here (for x == 0): ArithmeticException
    }
}
