package waits;

// The verdict tests of monitor.go that need exception handlers (exc.go):
// synchronized blocks (javac's rethrowing handler), the catch of wait's
// InterruptedException in run(), and an exception that leaves a
// synchronized method, which must release its monitor.

// A one-place buffer whose take waits with if (BufferIf: the second
// consumer, woken by notifyAll, takes from the empty slot) or while.
class Slot {
    int item;
    boolean full;

    synchronized void put(int v) throws InterruptedException {
        while (full) {
            wait();
        }
        item = v;
        full = true;
        notifyAll();
    }

    synchronized int take(boolean useIf) throws InterruptedException {
        if (useIf) {
            if (!full) {
                wait();
            }
        } else {
            while (!full) {
                wait();
            }
        }
        assert full : "take from an empty slot"; // fails here
        full = false;
        notifyAll();
        return item;
    }
}

class Consumer extends Thread {
    final Slot slot;
    final boolean useIf;
    int got;

    Consumer(Slot slot, boolean useIf) {
        this.slot = slot;
        this.useIf = useIf;
    }

    @Override
    public void run() {
        try {
            got = slot.take(useIf);
        } catch (InterruptedException e) {
            // nothing interrupts
        }
    }

    static void run(boolean useIf) throws InterruptedException {
        Slot s = new Slot();
        Consumer c1 = new Consumer(s, useIf);
        Consumer c2 = new Consumer(s, useIf);
        c1.start();
        c2.start();
        s.put(1);
        s.put(2);
        c1.join();
        c2.join();
        assert c1.got + c2.got == 3;
    }
}

class BufferIf {
    public static void main(String[] args) throws InterruptedException {
        Consumer.run(true);
    }
}

class BufferWhile {
    public static void main(String[] args) throws InterruptedException {
        Consumer.run(false);
    }
}

// Two threads lock two objects in opposite orders in synchronized
// blocks: deadlock.
class Fork extends Thread {
    static int meals;
    final Object left, right;

    Fork(Object left, Object right) {
        this.left = left;
        this.right = right;
    }

    @Override
    public void run() {
        synchronized (left) {
            synchronized (right) { // blocks here
                meals++;
            }
        }
    }
}

class BlockOrder {
    public static void main(String[] args) {
        Object x = new Object();
        Object y = new Object();
        new Fork(x, y).start();
        new Fork(y, x).start();
    }
}

// An exception thrown out of a synchronized method and caught: the
// monitor is released, so the other thread gets it. Passes.
class Guarded {
    int n;

    synchronized void bump(boolean fail) {
        n++;
        if (fail) {
            throw new IllegalStateException("refused");
        }
    }
}

class Bumper extends Thread {
    final Guarded g;

    Bumper(Guarded g) {
        this.g = g;
    }

    @Override
    public void run() {
        g.bump(false);
    }
}

class Release {
    public static void main(String[] args) throws InterruptedException {
        Guarded g = new Guarded();
        Bumper b = new Bumper(g);
        b.start();
        try {
            g.bump(true);
        } catch (IllegalStateException e) {
            // the monitor of g is free again
        }
        b.join();
        assert g.n == 2;
    }
}

// notify in a synchronized block on one object, of another object's
// monitor: IllegalMonitorStateException, caught by the program. Passes.
class NotifyCaught {
    public static void main(String[] args) {
        Object a = new Object();
        Object b = new Object();
        boolean caught = false;
        synchronized (a) {
            try {
                b.notify();
            } catch (IllegalMonitorStateException e) {
                caught = true;
            }
        }
        assert caught;
    }
}
