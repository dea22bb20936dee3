package jcli;

// Two threads increment a field without synchronization: an increment is
// lost in some schedule (java_test.go: thread names in a trail).
public class Race {
    static int count;

    static class Bump extends Thread {
        public void run() {
            count++;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Bump a = new Bump();
        Bump b = new Bump();
        a.start();
        b.start();
        a.join();
        b.join();
        assert count == 2;
    }
}
