package threads;

// Threads: a Thread subclass and a Runnable, started and joined; join of
// a thread never started returns at once; isAlive; an explicit
// super.run() runs the Runnable given to the constructor. Passes. The
// other classes of this file are the verdict tests of thread.go.
public class Threads {
    static int done;

    static class Worker extends Thread {
        @Override
        public void run() {
            done = done + 1;
        }
    }

    static class Task implements Runnable {
        public void run() {
            done = done + 10;
        }
    }

    static class Wrapper extends Thread {
        Wrapper(Runnable r) {
            super(r, "wrapper");
        }

        @Override
        public void run() {
            super.run();
            done = done + 100;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Worker w = new Worker();
        w.join(); // never started: returns at once
        assert !w.isAlive();
        w.start();
        w.join();
        assert !w.isAlive();
        assert done == 1;
        Thread t = new Thread(new Task());
        t.start();
        t.join();
        assert done == 11 : "the Runnable ran";
        Wrapper r = new Wrapper(new Task());
        r.start();
        r.join();
        assert done == 121 : "super.run() ran the Runnable";
    }
}

// Two threads increment a static field without synchronization: an
// increment can be lost.
class LostUpdateT {
    static int count;

    static class Inc implements Runnable {
        public void run() {
            count++;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Thread a = new Thread(new Inc());
        Thread b = new Thread(new Inc());
        a.start();
        b.start();
        a.join();
        b.join();
        assert count == 2 : "an increment was lost"; // fails here
    }
}

// A thread started twice: IllegalThreadStateException.
class StartTwice {
    public static void main(String[] args) {
        Thread t = new Thread(new LostUpdateT.Inc());
        t.start();
        t.start(); // fails here
    }
}
