package review;

import gov.nasa.jpf.vm.Verify;
import org.sosy_lab.sv_benchmarks.Verifier;

// Assumptions with threads: JPF discards an execution whose assumption is
// false. In main before the threads start, the model's ending of main
// does the same: AssumeMain passes.
public class Assume {
    static int x;

    static class Check extends Thread {
        public void run() {
            assert x >= 2;
        }
    }

    public static void main(String[] args) throws Exception {
        x = Verify.getInt(0, 3);
        Verifier.assume(x > 1);
        Check c = new Check();
        c.start();
        c.join();
    }
}

// The thread's false assumption ended only the thread; main went on to
// its assert (a wrong violation); JPF prunes the path: pass.
class AssumeThread {
    static int x;

    static class T extends Thread {
        public void run() {
            Verifier.assume(x > 1);
        }
    }

    public static void main(String[] args) throws Exception {
        x = Verify.getInt(0, 3);
        T t = new T();
        t.start();
        t.join();
        assert x >= 2;
    }
}
