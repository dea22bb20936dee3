package jcli;

// Allocates six objects at one site: more than birch's default bound of
// four (java_test.go: --max-objects).
public class Many {
    static class Cell {
        int v;
    }

    public static void main(String[] args) {
        Cell last = null;
        for (int i = 0; i < 6; i++) {
            last = new Cell();
            last.v = i;
        }
        assert last.v == 5;
    }
}
