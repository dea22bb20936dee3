// Control: switches, exceptions, assert, monitors and threads.
import java.io.IOException;

public class Control {
    private final Object lock = new Object();
    private int items;
    private static int statics;

    enum Color {
        RED, GREEN, BLUE;

        Color next() {
            return values()[(ordinal() + 1) % values().length];
        }
    }

    static int colors(Color c) {
        switch (c) {
            case RED:
                return 1;
            case BLUE:
                return 3;
            default:
                return 2;
        }
    }

    static int table(int x) {
        switch (x) {
            case 1:
                return 10;
            case 2:
                return 20;
            case 3:
            case 4:
                return 30;
            case 6:
                return 60;
            default:
                return -1;
        }
    }

    static int lookup(int x) {
        switch (x) {
            case -1000:
                return 1;
            case 7:
                return 2;
            case 100000:
                return 3;
            default:
                return 0;
        }
    }

    static int strings(String s) {
        switch (s) {
            case "one":
                return 1;
            case "two":
                return 2;
            default:
                return 0;
        }
    }

    static int tryCatch(int[] a, int i) {
        int r = 0;
        try {
            r = a[i] / i;
        } catch (ArithmeticException e) {
            r = -1;
        } catch (ArrayIndexOutOfBoundsException | NullPointerException e) {
            r = -2;
        } finally {
            r += 100;
        }
        return r;
    }

    static void thrower(int x) throws IOException, InterruptedException {
        if (x < 0) {
            throw new IllegalArgumentException("negative: " + x);
        }
        if (x == 0) {
            throw new IOException();
        }
    }

    static int nested(int x) {
        try {
            try {
                thrower(x);
            } finally {
                statics++;
            }
        } catch (IOException | InterruptedException e) {
            return 1;
        } catch (RuntimeException e) {
            return 2;
        }
        return 0;
    }

    static int asserts(int x) {
        assert x > 0 : "x must be positive";
        assert x != 5;
        return x;
    }

    synchronized void put() throws InterruptedException {
        while (items >= 2) {
            wait();
        }
        items++;
        notifyAll();
    }

    void take() throws InterruptedException {
        synchronized (lock) {
            while (items == 0) {
                lock.wait();
            }
            items--;
            lock.notify();
        }
    }

    static synchronized void bump() {
        statics++;
    }

    static class Worker extends Thread {
        private final Control c;

        Worker(Control c) {
            this.c = c;
        }

        @Override
        public void run() {
            try {
                c.put();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Control c = new Control();
        Worker w = new Worker(c);
        Thread t = new Thread(new Runnable() {
            public void run() {
                bump();
            }
        });
        w.start();
        t.start();
        c.take();
        w.join();
        t.join();
        System.out.println(w.isAlive() + " " + table(3) + lookup(7) + strings("two") + tryCatch(null, 0) + nested(1) + asserts(1));
    }
}
