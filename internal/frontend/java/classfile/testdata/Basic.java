// Basic: fields, a constructor, a loop, a call; read by classfile's tests.
public class Basic {
    static int count = 3;
    long total;
    final String name;

    Basic(String name) {
        this.name = name;
    }

    int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    public static void main(String[] args) {
        Basic b = new Basic("b");
        b.total = b.sum(count) + 1000000L;
        System.out.println(b.total);
    }
}
