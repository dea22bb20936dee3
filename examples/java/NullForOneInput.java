// NullForOneInput.java: an exception reachable for exactly one input. nth() walks k links
// along a list of three nodes; the caller lets k range over 0..3, one too many. For k = 3 the
// walk ends on the null after the last node and reading its value throws a
// NullPointerException that nothing catches; for k = 0, 1 and 2 the value is right. The
// search tries all four values Verify.getInt(0, 3) can return: fail null, in nth().
// expect: fail null
import gov.nasa.jpf.vm.Verify;

public class NullForOneInput {
    static class Node {
        final int value;
        final Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    static int nth(Node head, int k) {
        Node n = head;
        for (int i = 0; i < k; i++) {
            n = n.next;
        }
        return n.value; // fails here
    }

    public static void main(String[] args) {
        Node list = new Node(10, new Node(20, new Node(30, null)));
        int length = 3;
        int k = Verify.getInt(0, length);
        int v = nth(list, k);
        assert v == 10 * (k + 1);
    }
}
