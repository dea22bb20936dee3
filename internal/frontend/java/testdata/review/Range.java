package review;

import gov.nasa.jpf.vm.Verify;

// Verify.getInt(min, max) with min > max: JPF swaps the bounds, so every
// value between them is a choice (birch deadlocked where the bounds were
// variables and reported constant ones unsupported). JPF passes.
public class Range {
    public static void main(String[] args) {
        int n = args.length;
        int x = Verify.getInt(1, n);
        int y = Verify.getInt(3, 1);
        int z = Verify.random(n - 2);
        assert (x == 0 || x == 1) && y >= 1 && y <= 3 && z <= 0 && z >= -2;
    }
}

// Every value is chosen: the extremes together fail the assertion.
class RangeAll {
    public static void main(String[] args) {
        int n = args.length;
        int x = Verify.getInt(1, n);
        int y = Verify.getInt(3, 1);
        int z = Verify.random(n - 2);
        assert x != 0 || y != 3 || z != -2;
    }
}
