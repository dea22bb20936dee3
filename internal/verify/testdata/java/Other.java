// a second class with a main method
public class Other {
    public static void main(String[] args) {
        System.out.println(lib.Lib.one());
    }
}
