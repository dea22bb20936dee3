package slotreuse;

import gov.nasa.jpf.vm.Verify;

// Found by TestJDiffLong: javac gives x1 and x3, never read, no
// LocalVariableTable entry and one slot; the slot, l2, was typed 0..1 by
// the boolean stored first, and the short -1 was bad input (exit 2).
public class SlotReuse {
    static boolean s5;

    public static void main(String[] args) {
        int k = Verify.getInt(-1, 0);
        {
            boolean x1 = s5;
        }
        switch (k) {
            case -1:
                short x3 = (short) -1;
            case 0:
                break;
        }
    }
}
