public class Reset {
    static int count;
    static void add(int a, int unused) { count += a; }
    public static void main(String[] args) {
        int x = 3;
        count += x;
        add(2, 9);
        assert count == 0 : "counted";
    }
}
