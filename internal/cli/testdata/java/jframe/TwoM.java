public class TwoM { public static void main(String[] a) { Other.main(a); } }
class Other { static int x = 1; static void bump() { x++; } public static void main(String[] args) { bump(); assert x == 1 : "bumped"; } }
