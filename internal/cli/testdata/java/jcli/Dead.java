package jcli;

// Two threads take two locks in opposite orders (java_test.go: a
// deadlock's threads at their Java frames).
public class Dead {
    static final Object a = new Object();
    static final Object b = new Object();

    static class First extends Thread {
        public void run() {
            synchronized (a) {
                synchronized (b) {
                }
            }
        }
    }

    static class Second extends Thread {
        public void run() {
            synchronized (b) {
                synchronized (a) {
                }
            }
        }
    }

    public static void main(String[] args) {
        new First().start();
        new Second().start();
    }
}
