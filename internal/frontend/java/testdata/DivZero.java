import gov.nasa.jpf.vm.Verify;

// Division by a constant zero (BIR rejects one: the lowering throws) for
// x == 2 and by a variable zero for x == 0; the first the search finds
// depends on its order, so the test checks each input on its own.
public class DivZero {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 2);
        if (x == 2) {
            x = x / 0;
        }
        int y = 10 / x;
        System.out.println(y);
    }
}
