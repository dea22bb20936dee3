package indexout;

// An index one past the end: ArrayIndexOutOfBoundsException, uncaught:
// a violation (java -ea too).
public class IndexOut {
    public static void main(String[] args) {
        int[] a = new int[3];
        int s = 0;
        for (int i = 0; i <= a.length; i++) {
            s += a[i]; // fails here
        }
        System.out.println(s);
    }
}
