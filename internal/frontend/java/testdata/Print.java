import org.sosy_lab.sv_benchmarks.Verifier;

// Printing, SV-COMP's Verifier and assume; the assert holds.
public class Print {
    public static void main(String[] args) {
        int x = Verifier.nondetInt();
        Verifier.assume(x > 0 && x < 3);
        boolean b = x == 1;
        System.out.println("start");
        System.out.println(x);
        System.out.println(b);
        System.out.println('c');
        System.out.print("no newline ");
        System.out.println("x=" + x + " b=" + b + " \"quoted\\\"");
        System.out.println();
        assert x == 1 || x == 2;
    }
}
