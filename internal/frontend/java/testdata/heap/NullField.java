package nullfield;

// A field read through null: NullPointerException, uncaught: a violation
// (java -ea too).
class Cell {
    Cell next;
    int v;
}

public class NullField {
    public static void main(String[] args) {
        Cell a = new Cell();
        a.v = 1;
        Cell b = a.next;
        System.out.println(b.v); // fails here
    }
}
