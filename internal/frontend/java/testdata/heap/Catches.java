package catches;

// The heap's exceptions caught by the program's handlers (exc.go): a
// field of null, an index past the end, a negative length, a cast to an
// interface the object does not implement, a call on null through an
// interface no class of the program implements. Every assertion holds:
// pass (java -ea too).
public class Catches {
    static class Cell {
        int v;
        Cell next;
    }

    interface Op {
        int run();
    }

    public static void main(String[] args) {
        Cell c = new Cell();
        int caught = 0;
        try {
            caught += c.next.v;
        } catch (NullPointerException e) {
            caught += 1;
        }
        int[] a = new int[2];
        try {
            a[2] = 1;
        } catch (ArrayIndexOutOfBoundsException e) {
            caught += 10;
        }
        try {
            int[] b = new int[caught - 100];
        } catch (NegativeArraySizeException e) {
            caught += 100;
        }
        Object o = c;
        try {
            Op op = (Op) o;
        } catch (ClassCastException e) {
            caught += 1000;
        }
        Op nop = null;
        try {
            nop.run();
        } catch (RuntimeException e) {
            caught += 10000;
        }
        assert caught == 11111;
        System.out.println(caught);
    }
}
