package parseint;

// Integer.parseInt of string constants, of main's args (empty: never read
// here), a thread's name; a constant that is no number throws
// NumberFormatException, uncaught: a violation (java -ea too).
public class ParseInt {
    public static void main(String[] args) {
        int n = 3;
        if (args.length > 0) {
            n = Integer.parseInt(args[0]);
        }
        assert Integer.parseInt("-42") == -42 && Integer.parseInt("+7") == 7 && n == 3;
        Thread t = new Thread();
        t.setName("worker");
        int bad = Integer.parseInt("4x2"); // fails here
        System.out.println(bad);
    }
}
