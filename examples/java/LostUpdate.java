// LostUpdate.java: two threads increment a shared counter without synchronization. count++ is
// a read of the field and a write of it, two steps another thread can come between: both
// threads read 0, both write 1, and one increment is lost. After joining both threads main
// asserts the count is 2, which fails in that schedule: fail assert. LostUpdateSynchronized.java
// makes the increment a synchronized method.
// expect: fail assert
public class LostUpdate {
    static int count;

    static class Incrementer extends Thread {
        @Override
        public void run() {
            count++;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Incrementer a = new Incrementer();
        Incrementer b = new Incrementer();
        a.start();
        b.start();
        a.join();
        b.join();
        assert count == 2 : "an increment was lost"; // fails here
    }
}
