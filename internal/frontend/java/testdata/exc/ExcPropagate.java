package excpropagate;

import gov.nasa.jpf.vm.Verify;

// A user exception thrown two calls down, rethrown from a catch, through
// a finally of a nested try, into the outer catch.
public class ExcPropagate {
    static class Overdraft extends Exception {
        Overdraft() {
            super();
        }
    }

    static int balance = 1;
    static int tries;

    static void withdraw(int n) throws Overdraft {
        if (n > balance) {
            throw new Overdraft();
        }
        balance -= n;
    }

    static void pay(int n) throws Overdraft {
        withdraw(n);
    }

    static void retry(int n) throws Overdraft {
        try {
            pay(n);
        } catch (Overdraft e) {
            tries++;
            throw e;
        }
    }

    public static void main(String[] args) {
        int n = Verify.getInt(1, 2);
        boolean caught = false;
        try {
            try {
                retry(n);
            } finally {
                tries += 10;
            }
        } catch (Overdraft e) {
            caught = true;
        }
        assert caught == (n == 2);
        assert tries == (caught ? 11 : 10);
        assert balance == (caught ? 1 : 0);
    }
}
