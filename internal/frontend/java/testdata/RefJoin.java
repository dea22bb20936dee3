import gov.nasa.jpf.vm.Verify;

// References of different classes joined on the operand stack
// (ternaries), a slot javac reuses for locals of different classes in
// sibling scopes, and a for-each's hidden locals in the slot of a boolean
// of an earlier scope: every assert holds but the last, for b.
public class RefJoin {
    static class Shape {
        int sides;

        Shape(int s) {
            sides = s;
        }
    }

    static class Tri extends Shape {
        Tri() {
            super(3);
        }
    }

    static class Sq extends Shape {
        Sq() {
            super(4);
        }
    }

    public static void main(String[] args) {
        boolean b = Verify.getBoolean();
        Shape s = b ? new Tri() : new Sq();
        assert s.sides == (b ? 3 : 4);
        int n = (b ? new Tri() : new Sq()).sides;
        assert n == s.sides;
        Object o = b ? null : new Sq();
        assert (o == null) == b;
        {
            Tri t = new Tri();
            assert t.sides == 3;
        }
        {
            Sq q = new Sq();
            assert q.sides == 4;
        }
        {
            boolean flag = !b;
            assert flag != b;
        }
        int[] arr = {1, 2, 3};
        int sum = 0;
        for (int v : arr) {
            sum += v;
        }
        assert sum == 6;
        assert !b : "the last";
    }
}
