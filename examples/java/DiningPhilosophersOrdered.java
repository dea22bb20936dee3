// DiningPhilosophersOrdered.java: the philosophers of DiningPhilosophers.java, except that each
// takes the lower-numbered of its two forks first. The last philosopher then reaches for fork
// 0 before fork 2, so no cycle of waiting threads can form: whoever holds the highest fork
// they want can always take the other. Each philosopher eats twice; every schedule ends with
// all of them done: pass.
// expect: pass
// states: 6110, transitions: 15681
public class DiningPhilosophersOrdered {
    static class Fork {
        final int number;

        Fork(int number) {
            this.number = number;
        }
    }

    static class Philosopher extends Thread {
        private final Fork first, second;
        int meals;

        Philosopher(Fork a, Fork b) {
            if (a.number < b.number) {
                first = a;
                second = b;
            } else {
                first = b;
                second = a;
            }
        }

        @Override
        public void run() {
            for (int i = 0; i < 2; i++) {
                synchronized (first) {
                    synchronized (second) {
                        meals++;
                    }
                }
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Fork f0 = new Fork(0);
        Fork f1 = new Fork(1);
        Fork f2 = new Fork(2);
        Philosopher p0 = new Philosopher(f0, f1);
        Philosopher p1 = new Philosopher(f1, f2);
        Philosopher p2 = new Philosopher(f2, f0);
        p0.start();
        p1.start();
        p2.start();
        p0.join();
        p1.join();
        p2.join();
        assert p0.meals + p1.meals + p2.meals == 6;
    }
}
