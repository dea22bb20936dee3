package unsupportedthreads;

// What thread.go and monitor.go leave unsupported, each at its line.

// A timed wait.
class TimedWait {
    public static void main(String[] args) throws InterruptedException {
        Object o = new Object();
        synchronized (o) {
            o.wait(10); // unsupported
        }
    }
}

// Thread.currentThread().
class Current {
    public static void main(String[] args) {
        Thread t = Thread.currentThread(); // unsupported
    }
}

// A lock on an array.
class ArrayLock {
    public static void main(String[] args) {
        int[] a = new int[2];
        synchronized (a) { // unsupported
            a[0] = 1;
        }
    }
}
