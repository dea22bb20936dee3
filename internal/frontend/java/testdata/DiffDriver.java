// Runs the differential test programs on the inputs its arguments give
// ("DiffArith:3,-2"), each run after a line "== ARG", an exception that
// ends a run as "!! Class at line N"; differential_test.go compares this
// with birch's runs of the lowered programs. Never lowered itself.
public class DiffDriver {
    public static void main(String[] args) {
        for (String arg : args) {
            System.out.println("== " + arg);
            // each run starts from the static state birch's model starts from
            DiffLoops.total = 0;
            DiffMisc.Counter.count = 40;
            String[] pv = arg.split(":");
            String[] vs = pv[1].split(",");
            int a = Integer.parseInt(vs[0]);
            int b = Integer.parseInt(vs[1]);
            try {
                switch (pv[0]) {
                    case "DiffArith": DiffArith.run(a, b); break;
                    case "DiffLoops": DiffLoops.run(a, b); break;
                    case "DiffMisc": DiffMisc.run(a, b); break;
                    default: throw new IllegalArgumentException(pv[0]);
                }
            } catch (AssertionError | ArithmeticException e) {
                System.out.println("!! " + e.getClass().getSimpleName() + " at line " + e.getStackTrace()[0].getLineNumber());
            }
        }
    }
}
