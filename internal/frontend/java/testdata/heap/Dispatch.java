package dispatch;

// Objects, constructors (with super calls and field initializers),
// virtual and interface dispatch, a super call, fields of other classes,
// static fields and initializers, instanceof and checkcast, an inner class
// (outer.new Inner(): Objects.requireNonNull). Every
// assertion holds: pass (java -ea too).
interface Shape {
    int area();
    default int sides() { return 0; }
}

abstract class Base implements Shape {
    static int made;
    int id;
    Base next;

    Base(int id) {
        this.id = id;
        made++;
    }

    int describe() { return 100 + area(); }
}

class Rect extends Base {
    int w, h;

    Rect(int id, int w, int h) {
        super(id);
        this.w = w;
        this.h = h;
    }

    public int area() { return w * h; }
    public int sides() { return 4; }
}

class Square extends Rect {
    Square(int id, int s) { super(id, s, s); }

    int describe() { return super.describe() + 1; }
}

class Tri extends Base {
    int b, h;

    Tri(int id, int b, int h) {
        super(id);
        this.b = b;
        this.h = h;
    }

    public int area() { return b * h / 2; }
}

class Config {
    static int scale = 3;
    static final int LIMIT = 50;
    static long big;

    static {
        big = 1L << 40;
        scale = scale + 1;
    }
}

class Outer {
    int base = 21;

    class Inner {
        int twice() { return base * 2; }
    }
}

public class Dispatch {
    public static void main(String[] args) {
        Base r = new Rect(1, 2, 3);
        Base s = new Square(2, 4);
        Base t = new Tri(3, 4, 5);
        r.next = s;
        s.next = t;
        int total = 0;
        int n = 0;
        for (Base b = r; b != null; b = b.next) {
            total += b.area();
            n++;
        }
        assert n == 3 && total == 6 + 16 + 10;
        assert Base.made == 3;
        assert r.describe() == 106 && s.describe() == 117 && t.describe() == 110;
        Shape sh = t;
        assert sh.sides() == 0 && ((Shape) s).sides() == 4;
        assert s instanceof Rect && !(t instanceof Rect) && s instanceof Shape;
        Rect q = (Rect) s;
        assert q.w == 4 && q.h == 4 && q.id == 2;
        assert Config.scale == 4 && Config.big == 1099511627776L && Config.LIMIT == 50;
        Object o = q;
        assert o.equals(s) && !o.equals(t);
        Outer out = new Outer();
        Outer.Inner in = out.new Inner();
        assert in.twice() == 42;
        System.out.println("done");
    }
}
