package lib;

public class Lib {
    public static int one() {
        return 1;
    }
}
