package review;

// A Thread's monitor: Java's join() waits on it (releasing it while the
// thread runs) and a thread's end notifies it. The JVM passes both; the
// model's join waits for the end alone, and the end notifies nobody: both
// deadlocked in birch.
public class JoinMon {
    static int n;

    static class T extends Thread {
        public void run() {
            synchronized (this) {
                n++;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        T t = new T();
        synchronized (t) {
            t.start();
            t.join();
        }
        assert n == 1;
    }
}

class WaitEnd {
    static int n;

    static class T extends Thread {
        public void run() {
            n++;
        }
    }

    public static void main(String[] args) throws Exception {
        T t = new T();
        synchronized (t) {
            t.start();
            while (t.isAlive()) {
                t.wait();
            }
        }
        assert n == 1;
    }
}
