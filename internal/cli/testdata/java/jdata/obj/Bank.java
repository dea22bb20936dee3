package jdata.obj;

import org.sosy_lab.sv_benchmarks.Verifier;

// Account and a depositor thread as objects (instance field balance,
// synchronized deposit): with Account.balance abstracted by signs and the
// input too, the check passes for the executions where the balance does
// not wrap (two deposits of 2^30 or more would make it negative).
class Account {
    int balance;

    synchronized void deposit(int amount) {
        balance = balance + amount;
    }
}

class Depositor extends Thread {
    Account acc;
    int amount;

    Depositor(Account a, int n) {
        acc = a;
        amount = n;
    }

    public void run() {
        acc.deposit(amount);
    }
}

public class Bank {
    public static void main(String[] args) throws InterruptedException {
        Account a = new Account();
        int amt = Verifier.nondetInt();
        if (amt > 0) {
            Depositor d = new Depositor(a, amt);
            d.start();
            a.deposit(amt);
            d.join();
            assert a.balance > 0;
        }
    }
}
