package heapdriver;

// Runs the heap's test programs named by its arguments ("dispatch.Dispatch"),
// each after a line "== NAME", in one JVM; an exception that ends a run
// prints "!! Class at line N" (its class's simple name, the line of the
// program where it was thrown). heap_verdict_test.go compares this with birch's runs of the
// lowered programs. Never lowered itself.
public class HeapDriver {
    public static void main(String[] args) {
        for (String name : args) {
            System.out.println("== " + name);
            try {
                run(name);
            } catch (Throwable e) {
                int line = 0;
                for (StackTraceElement f : e.getStackTrace()) {
                    if (!f.getClassName().startsWith("java.")) {
                        line = f.getLineNumber(); // the program's frame
                        break;
                    }
                }
                System.out.println("!! " + e.getClass().getSimpleName() + " at line " + line);
            }
        }
    }

    static void run(String name) {
        String[] none = new String[0];
        switch (name) {
            case "dispatch.Dispatch": dispatch.Dispatch.main(none); break;
            case "arrays1.Arrays1": arrays1.Arrays1.main(none); break;
            case "indexout.IndexOut": indexout.IndexOut.main(none); break;
            case "negsize.NegSize": negsize.NegSize.main(none); break;
            case "badcast.BadCast": badcast.BadCast.main(none); break;
            case "nullcall.NullCall": nullcall.NullCall.main(none); break;
            case "nullfield.NullField": nullfield.NullField.main(none); break;
            case "boxing.Boxing": boxing.Boxing.main(none); break;
            case "parseint.ParseInt": parseint.ParseInt.main(none); break;
            case "strings.Strings": strings.Strings.main(none); break;
            case "ifacecast.IfaceCast": ifacecast.IfaceCast.main(none); break;
            case "catches.Catches": catches.Catches.main(none); break;
            default: throw new IllegalArgumentException(name);
        }
    }
}
