package excthread;

import gov.nasa.jpf.vm.Verify;

// An exception that main could catch leaves a thread's run(): uncaught in
// that thread, a violation naming its class where it leaves run().
public class ExcThread {
    static void work(int x) {
        if (x == 1) {
            throw new IllegalStateException();
        }
    }

    static class Worker extends Thread {
        int x;

        Worker(int x) {
            this.x = x;
        }

        public void run() {
            work(x); // fails here
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int x = Verify.getInt(0, 1);
        try {
            work(0);
        } catch (IllegalStateException e) {
            assert false;
        }
        Thread t = new Worker(x);
        t.start();
        t.join();
    }
}
