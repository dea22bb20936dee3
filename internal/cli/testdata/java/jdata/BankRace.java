package jdata;

import org.sosy_lab.sv_benchmarks.Verifier;

// A real bug without a wrap: main withdraws what the depositor thread
// deposits without waiting for it and checks the balance at once.
class Wallet {
    int balance;

    synchronized void deposit(int amount) {
        balance = balance + amount;
    }

    synchronized void withdraw(int amount) {
        balance = balance - amount;
    }
}

class Payer extends Thread {
    Wallet w;
    int amount;

    Payer(Wallet w, int n) {
        this.w = w;
        amount = n;
    }

    public void run() {
        w.deposit(amount);
    }
}

public class BankRace {
    public static void main(String[] args) throws InterruptedException {
        Wallet w = new Wallet();
        int amt = Verifier.nondetInt();
        if (amt > 0) {
            Payer p = new Payer(w, amt);
            p.start();
            w.withdraw(amt);
            assert w.balance >= 0;
            p.join();
        }
    }
}
