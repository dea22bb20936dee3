package arrays1;

// Arrays of every integer type, of objects and of arrays (multianewarray,
// two and three dimensions),
// arraylength, loops over them, and aliasing. Every assertion holds: pass
// (java -ea too).
public class Arrays1 {
    static int[] shared = new int[4];

    static int sum(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    public static void main(String[] args) {
        int[] a = new int[5];
        for (int i = 0; i < a.length; i++) {
            a[i] = i * i;
        }
        assert sum(a) == 30;
        long[] l = new long[2];
        l[1] = 1L << 40;
        assert l[0] == 0 && l[1] > Integer.MAX_VALUE;
        boolean[] b = new boolean[3];
        b[1] = true;
        assert !b[0] && b[1];
        byte[] by = {(byte) 200, 7};
        assert by[0] == -56 && by.length == 2;
        char[] c = new char[2];
        c[0] = 'x';
        c[1] = (char) (c[0] + 1);
        assert c[1] == 'y';
        short[] sh = new short[1];
        sh[0] = (short) 70000;
        assert sh[0] == 4464;
        Integer[] boxes = new Integer[2];
        boxes[0] = 5;
        assert boxes[1] == null && boxes[0] == 5;
        int[][] m = new int[3][2];
        m[2][1] = 9;
        assert m.length == 3 && m[2].length == 2 && m[2][1] == 9 && m[0][0] == 0;
        int[][] ragged = new int[2][];
        ragged[1] = a;
        a[4] = 7;
        assert ragged[0] == null && ragged[1][4] == 7;
        long[][][] cube = new long[2][3][2];
        cube[1][2][1] = 5;
        assert cube[1][2][1] == 5 && cube[0][1].length == 2 && cube[1][0][1] == 0;
        int[][][] part = new int[2][2][];
        assert part[1][1] == null && part[1].length == 2;
        shared[3] = 2;
        assert sum(shared) == 2;
    }
}
