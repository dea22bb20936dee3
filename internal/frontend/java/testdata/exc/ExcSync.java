package excsync;

import gov.nasa.jpf.vm.Verify;

// An exception leaves a synchronized block (javac's handler releases the
// monitor) and a synchronized method (its return releases it): the other
// thread takes both monitors afterwards (else: a deadlock).
public class ExcSync {
    static final Object lock = new Object();
    static int n;

    static class Other extends Thread {
        public void run() {
            synchronized (lock) {
                n++;
            }
            bump(0);
        }
    }

    static void inc(int x) {
        synchronized (lock) {
            n++;
            if (x == 1) {
                throw new IllegalArgumentException();
            }
        }
    }

    static synchronized void bump(int x) {
        n++;
        if (x == 1) {
            throw new IllegalStateException();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int x = Verify.getInt(0, 1);
        try {
            inc(x);
        } catch (IllegalArgumentException e) {
            assert x == 1;
        }
        try {
            bump(x);
        } catch (IllegalStateException e) {
            assert x == 1;
        }
        Thread t = new Other();
        t.start();
        t.join();
        assert n == 4;
    }
}
