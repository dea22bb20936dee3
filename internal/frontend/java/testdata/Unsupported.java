// Constructs the lowering does not handle, one program each (main classes
// U1 ...): unsupported_test.go expects each at its line.
class U1 {
    public static void main(String[] args) {
        int n = 3;
        float f = n * 0.5f;
    }
}

class U2 {
    static double half(int x) {
        return x / 2.0;
    }

    public static void main(String[] args) {
        int n = 3;
        n = (int) half(n);
    }
}

class U3 {
    public static void main(String[] args) {
        long t = System.currentTimeMillis();
    }
}

class U4 {
    public static void main(String[] args) {
        Runnable r = () -> { };
    }
}

class U5 {
    public static void main(String[] args) {
        int n = args.length;
    }
}

class U6 {
    public static void main(String[] args) {
        String s = "text";
        System.out.println(s);
    }
}

class U7 {
    public static void main(String[] args) {
        int n = 3;
        n = Integer.numberOfLeadingZeros(4) + n;
    }
}

class U8 {
    static int f(int x) {
        try {
            return 10 / x;
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    public static void main(String[] args) {
        int n = f(0);
    }
}

class U9 {
    static Object keep;

    public static void main(String[] args) {
        Object o = new int[3];
        keep = o;
    }
}
