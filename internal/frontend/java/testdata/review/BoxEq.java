package review;

// == on boxed Integers: the JVM's valueOf caches -128..127, so a == b
// holds here and c != d too; the model boxes into a new object each time.
public class BoxEq {
    public static void main(String[] args) {
        Integer a = 7;
        Integer b = 7;
        assert a == b;
        Integer c = 1000;
        Integer d = 1000;
        assert c != d;
    }
}
