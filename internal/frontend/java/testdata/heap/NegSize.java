package negsize;

// An array of negative length: NegativeArraySizeException, uncaught: a
// violation (java -ea too).
public class NegSize {
    static int size(int n) { return n - 3; }

    public static void main(String[] args) {
        int[] ok = new int[size(3)];
        assert ok.length == 0;
        long[] bad = new long[size(2)]; // fails here
        System.out.println(bad.length);
    }
}
