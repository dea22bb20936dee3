import gov.nasa.jpf.vm.Verify;
import org.sosy_lab.sv_benchmarks.Verifier;

// A false assumption ends the path, no deadlock: the program passes.
public class Assume {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 5);
        Verifier.assume(x > 2);
        assert x > 2;
        Verify.ignoreIf(x == 4); // JPF's spelling, in birch's stub too
        assert x != 4;
        System.out.println(x);
    }
}
