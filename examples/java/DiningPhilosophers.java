// DiningPhilosophers.java: three philosophers sit around a table with a fork between each two
// of them. Each takes the fork on their left, then the fork on their right (a synchronized
// block on each fork), eats, and puts both down. When all three have taken their left fork,
// each waits for a fork its neighbour holds and no thread can move: fail deadlock. The trail
// ends with every philosopher inside its first synchronized block, blocked on the second.
// DiningPhilosophersOrdered.java breaks the cycle.
// expect: fail deadlock
public class DiningPhilosophers {
    static class Philosopher extends Thread {
        private final Object left, right;

        Philosopher(Object left, Object right) {
            this.left = left;
            this.right = right;
        }

        @Override
        public void run() {
            synchronized (left) {
                synchronized (right) { // blocks here
                    eat();
                }
            }
        }

        void eat() {
        }
    }

    public static void main(String[] args) {
        Object f0 = new Object();
        Object f1 = new Object();
        Object f2 = new Object();
        new Philosopher(f0, f1).start();
        new Philosopher(f1, f2).start();
        new Philosopher(f2, f0).start();
    }
}
