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

// The same Integers held in Object and Number variables: still one cached
// object for 7 in the JVM, so a == b holds.
class BoxObjEq {
    public static void main(String[] args) {
        Object a = 7;
        Object b = 7;
        assert a == b;
        Number c = 5;
        Number d = 5;
        assert c == d;
    }
}
