package monitors;

// Monitors: two threads increment a counter in a synchronized method
// that calls another on the same object (reentrant), and a static one;
// after joining both the counts are exact. Passes. The other classes of
// this file are the verdict tests of monitor.go.
public class Monitors {
    int count;
    static int total;

    synchronized void inc() {
        count++;
    }

    synchronized void incTwice() {
        inc(); // reentrant: the monitor is held already
        inc();
    }

    static synchronized void add() {
        total++;
    }

    static class Incrementer extends Thread {
        final Monitors m;

        Incrementer(Monitors m) {
            this.m = m;
        }

        @Override
        public void run() {
            m.incTwice();
            add();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Monitors m = new Monitors();
        Incrementer a = new Incrementer(m);
        Incrementer b = new Incrementer(m);
        a.start();
        b.start();
        a.join();
        b.join();
        assert m.count == 4;
        assert total == 2;
    }
}

// Two clerks transfer between two accounts in opposite directions: each
// holds the monitor of the account it takes from and waits for the
// other's: deadlock.
class Account {
    int balance;

    synchronized void transfer(Account to, int amount) {
        balance -= amount;
        to.deposit(amount);
    }

    synchronized void deposit(int amount) {
        balance += amount; // blocks here
    }
}

class Clerk extends Thread {
    final Account from, to;

    Clerk(Account from, Account to) {
        this.from = from;
        this.to = to;
    }

    @Override
    public void run() {
        from.transfer(to, 1);
    }
}

class LockOrder {
    public static void main(String[] args) {
        Account a = new Account();
        Account b = new Account();
        new Clerk(a, b).start();
        new Clerk(b, a).start();
    }
}

// wait without holding the monitor: IllegalMonitorStateException.
class WaitUnowned {
    public static void main(String[] args) throws InterruptedException {
        Object o = new Object();
        o.wait(); // fails here
    }
}

// wait in a monitor held twice (a synchronized method calling another):
// unwait gives the count back, and the two returns release the monitor,
// so the last thread gets it. Passes.
class ReentrantWait {
    boolean ready;
    int after;

    synchronized void outer() throws InterruptedException {
        inner();
        assert ready;
    }

    synchronized void inner() throws InterruptedException {
        while (!ready) {
            wait();
        }
    }

    synchronized void signal() {
        ready = true;
        notifyAll();
    }

    synchronized void last() {
        after++;
    }

    static class Signal extends Thread {
        final ReentrantWait r;
        final boolean first;

        Signal(ReentrantWait r, boolean first) {
            this.r = r;
            this.first = first;
        }

        @Override
        public void run() {
            if (first) {
                r.signal();
            } else {
                r.last();
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        ReentrantWait r = new ReentrantWait();
        new Signal(r, true).start();
        r.outer();
        Signal s = new Signal(r, false);
        s.start();
        s.join();
        assert r.after == 1;
    }
}
