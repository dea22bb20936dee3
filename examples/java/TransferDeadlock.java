// TransferDeadlock.java: a deadlock from lock order. transfer() locks the account it takes
// money from, then the one it pays into. One clerk moves money from a to b while the other
// moves money from b to a: each can hold its first account's monitor while it waits for the
// other's, and neither thread can move: fail deadlock. Locking the two accounts in one global
// order (as DiningPhilosophersOrdered.java does with its forks) removes it.
// expect: fail deadlock
public class TransferDeadlock {
    static class Account {
        int balance;

        Account(int balance) {
            this.balance = balance;
        }
    }

    static void transfer(Account from, Account to, int amount) {
        synchronized (from) {
            synchronized (to) { // blocks here
                from.balance -= amount;
                to.balance += amount;
            }
        }
    }

    static class Clerk extends Thread {
        private final Account from, to;

        Clerk(Account from, Account to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public void run() {
            transfer(from, to, 1);
        }
    }

    public static void main(String[] args) {
        Account a = new Account(10);
        Account b = new Account(10);
        new Clerk(a, b).start();
        new Clerk(b, a).start();
    }
}
