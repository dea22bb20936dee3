// Shapes: interfaces, abstract classes, nested, inner, local and anonymous
// classes, constructors, static initializers, arrays, casts, recursion,
// lambdas.
import java.util.function.IntUnaryOperator;

interface Shape {
    int SIDES = 0;

    int area();

    default int twice() {
        return 2 * area();
    }

    static Shape unit() {
        return new Shapes.Square(1);
    }
}

abstract class Base implements Shape, Comparable<Base> {
    protected final int id;
    static int made;

    static {
        made = 0;
    }

    Base() {
        this(++made);
    }

    Base(int id) {
        this.id = id;
    }

    public int compareTo(Base other) {
        return Integer.compare(area(), other.area());
    }

    abstract String kind();
}

public class Shapes {
    static final Shape[] ALL;
    static int[][] grid = new int[3][4];
    private int count;

    static {
        ALL = new Shape[2];
        ALL[0] = new Square(2);
        ALL[1] = new Rect(2, 3);
    }

    static class Square extends Base {
        final int side;

        Square(int side) {
            this.side = side;
        }

        public int area() {
            return side * side;
        }

        String kind() {
            return "square";
        }
    }

    static final class Rect extends Base {
        final int w, h;

        Rect(int w, int h) {
            super(100);
            this.w = w;
            this.h = h;
        }

        public int area() {
            return w * h;
        }

        String kind() {
            return "rect";
        }
    }

    class Counter {
        int next() {
            return ++count;
        }
    }

    static int fact(int n) {
        if (n <= 1) {
            return 1;
        }
        return n * fact(n - 1);
    }

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    int arrays(int n) {
        int[] a = new int[n];
        long[] la = new long[2];
        char[] ca = {'a', 'b'};
        byte[] ba = new byte[1];
        short[] sa = new short[1];
        boolean[] za = new boolean[1];
        float[] fa = new float[1];
        double[] da = new double[1];
        Object[] oa = new Object[n];
        String[][] ss = new String[2][];
        int[][][] cube = new int[2][3][4];
        for (int i = 0; i < a.length; i++) {
            a[i] = i * i;
            oa[i] = a;
        }
        la[1] = a[0];
        ba[0] = (byte) ca[1];
        sa[0] = ba[0];
        za[0] = sa[0] > 0;
        da[0] = fa[0] = 1;
        cube[1][2][3] = ss.length + grid[2][3];
        return a.length + (za[0] ? 1 : 0) + cube[1][2][3];
    }

    int casts(Object o) {
        if (o instanceof Square) {
            return ((Square) o).side;
        }
        Shape s = (Shape) o;
        return s.area() + s.twice();
    }

    int local(int k) {
        class Local implements Shape {
            public int area() {
                return k;
            }
        }
        Shape anon = new Shape() {
            public int area() {
                return k + 1;
            }
        };
        Counter c = new Counter();
        IntUnaryOperator inc = x -> x + k;
        Runnable r = this::toString;
        r.run();
        return new Local().area() + anon.area() + c.next() + inc.applyAsInt(3);
    }

    public static void main(String[] args) {
        int total = 0;
        for (Shape s : ALL) {
            total += s.area();
        }
        total += fact(5) + fib(6) + Shape.unit().twice() + Shape.SIDES;
        System.out.println(total + new Shapes().arrays(3) + new Shapes().local(2));
    }
}
