public class OneEx { public static void main(String[] a) { try { Thrower.go(); } catch (IllegalStateException e) { throw e; } } }
class Thrower { static int n = 1; static void go() { if (n == 1) throw new IllegalStateException(); } }
