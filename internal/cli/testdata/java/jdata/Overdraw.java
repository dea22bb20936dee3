package jdata;

import org.sosy_lab.sv_benchmarks.Verifier;

// A real bug, without a wrap: a withdrawal from an empty account.
public class Overdraw {
    static int balance;

    static void withdraw(int amount) {
        balance = balance - amount;
    }

    // an overload: Overdraw.withdraw.amount names two parameters
    static void withdraw(int amount, int times) {
        for (int i = 0; i < times; i++) {
            withdraw(amount);
        }
    }

    public static void main(String[] args) {
        int amt = Verifier.nondetInt();
        if (amt > 0) {
            withdraw(amt, 1);
            assert balance >= 0;
        }
    }
}
