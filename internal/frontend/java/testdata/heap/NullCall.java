package nullcall;

// A virtual call on null: NullPointerException, uncaught: a violation
// (java -ea too).
class Node {
    Node next;
    int v;

    int value() { return v; }
}

public class NullCall {
    public static void main(String[] args) {
        Node a = new Node();
        a.next = new Node();
        int s = a.value() + a.next.value();
        Node c = a.next.next;
        s += c.value(); // fails here
        System.out.println(s);
    }
}
