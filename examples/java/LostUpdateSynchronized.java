// LostUpdateSynchronized.java: LostUpdate.java with the increment in a static synchronized
// method. The read and the write of count happen while the thread holds the class's monitor,
// so the other thread's increment comes wholly before or wholly after: after both joins the
// count is 2 in every schedule: pass.
// expect: pass
// states: 73, transitions: 114
public class LostUpdateSynchronized {
    static int count;

    static synchronized void increment() {
        count++;
    }

    static class Incrementer extends Thread {
        @Override
        public void run() {
            increment();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Incrementer a = new Incrementer();
        Incrementer b = new Incrementer();
        a.start();
        b.start();
        a.join();
        b.join();
        assert count == 2 : "an increment was lost";
    }
}
