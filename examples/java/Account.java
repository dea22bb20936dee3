// Account.java: a bank account shared by two threads, for data abstraction (docs/java.md,
// "Abstraction, predicates and SPIN"). balance is an int field; deposit() and withdraw() are
// synchronized, and withdraw() refuses an amount the balance does not cover, so the balance
// never goes below zero. A depositor puts in 1 or 2 (Verify.getInt) twice while a spender
// withdraws 1 three times; whatever the schedule, every assertion holds: pass.
// Abstracted by signs (Bandera's classic), the check is inconclusive: signs is not relational,
// so once balance >= amount holds, balance - amount of two POS values may be NEG to the
// abstraction, and the abstract trail to withdraw's assertion is not confirmed on the program.
// range(0,2) keeps 0, 1 and 2 exact (the amounts too) and proves it, for the executions in
// which the balance does not wrap around (which the report says).
// expect: pass
// states: 1509, transitions: 2746
// expect with --abstract Account.balance=signs: inconclusive
// expect with --abstract Account.balance=range(0,2): pass
import gov.nasa.jpf.vm.Verify;

public class Account {
    int balance;

    synchronized void deposit(int amount) {
        balance = balance + amount;
    }

    synchronized boolean withdraw(int amount) {
        if (balance < amount) {
            return false;
        }
        balance = balance - amount;
        assert balance >= 0;
        return true;
    }

    static class Depositor extends Thread {
        private final Account account;

        Depositor(Account account) {
            this.account = account;
        }

        @Override
        public void run() {
            for (int i = 0; i < 2; i++) {
                account.deposit(Verify.getInt(1, 2));
            }
        }
    }

    static class Spender extends Thread {
        private final Account account;

        Spender(Account account) {
            this.account = account;
        }

        @Override
        public void run() {
            for (int i = 0; i < 3; i++) {
                account.withdraw(1);
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Account account = new Account();
        Depositor d = new Depositor(account);
        Spender s = new Spender(account);
        d.start();
        s.start();
        d.join();
        s.join();
        assert account.balance >= 0;
    }
}
