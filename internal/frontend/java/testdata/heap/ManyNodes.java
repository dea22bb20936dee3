package manynodes;

// Five objects from one allocation site: beyond --max-objects 4 (the
// default) the check is inconclusive (a bound of the model), with 5 it
// passes.
public class ManyNodes {
    static class Node {
        Node next;
        int v;
    }

    public static void main(String[] args) {
        Node head = null;
        for (int i = 1; i <= 5; i++) {
            Node n = new Node();
            n.v = i;
            n.next = head;
            head = n;
        }
        int sum = 0;
        for (Node n = head; n != null; n = n.next) {
            sum += n.v;
        }
        assert sum == 15;
    }
}
