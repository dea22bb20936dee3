package monitors;

import gov.nasa.jpf.vm.Verify;
import org.sosy_lab.sv_benchmarks.Verifier;

// A false assumption in a thread ends the whole path, as in Java
// PathFinder: a join of that thread never returns on such a path, so the
// assertion after the join, which only a pruned path would reach with
// x == 0, holds.
public class AssumeJoin {
    static int x;

    static class Worker extends Thread {
        public void run() {
            x = Verify.getInt(0, 1);
            Verifier.assume(x == 1);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Worker w = new Worker();
        w.start();
        w.join();
        assert x == 1 : "only a pruned path gets here with x == 0";
    }
}

// A thread whose assumption fails while it holds a monitor: the path ends
// there, so main waiting for that monitor is no deadlock.
class AssumeHolding {
    static final Object lock = new Object();

    static class Worker extends Thread {
        public void run() {
            synchronized (lock) {
                Verifier.assume(Verify.getBoolean());
            }
        }
    }

    public static void main(String[] args) {
        new Worker().start();
        synchronized (lock) {
        }
    }
}
