package boxing;

// Integer boxing (valueOf, intValue, autoboxing), Integer.equals by value,
// Object.equals as identity, Math.abs/min/max on int and long. Every assertion holds: pass
// (java -ea too).
public class Boxing {
    static Integer box(int v) { return v; }

    public static void main(String[] args) {
        Integer a = box(7);
        int b = a + 1;
        assert b == 8 && a.intValue() == 7;
        Object o = a;
        assert o.equals(a);
        Integer c = box(7);
        Object seven = c;
        assert a.equals(c) && seven.equals(a) && !a.equals(box(8)) && !a.equals(new Object()) && !a.equals(null);
        assert Math.abs(-5) == 5 && Math.abs(Integer.MIN_VALUE) == Integer.MIN_VALUE;
        assert Math.abs(-5L) == 5L && Math.abs(Long.MIN_VALUE) == Long.MIN_VALUE;
        assert Math.min(3, -4) == -4 && Math.max(3, -4) == 3;
        assert Math.min(Integer.MIN_VALUE, Integer.MAX_VALUE) == Integer.MIN_VALUE;
        assert Math.max(Long.MIN_VALUE, Long.MAX_VALUE) == Long.MAX_VALUE && Math.min(1L << 40, 2L) == 2L;
    }
}
