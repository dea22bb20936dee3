package jdata;

import org.sosy_lab.sv_benchmarks.Verifier;

// Two deposits of a positive amount keep the balance positive for the
// mathematical integers, but Java's int wraps: an amount of 2^30 or more
// makes it negative. With Account.balance abstracted by signs the check
// passes for the executions where no abstracted value wraps, and says so.
public class Account {
    static int balance;
    static int count;

    static void deposit(int amount) {
        balance = balance + amount;
        count = count + 1;
    }

    public static void main(String[] args) {
        int amt = Verifier.nondetInt();
        if (amt > 0) {
            deposit(amt);
            deposit(amt);
            assert balance > 0;
        }
    }
}
