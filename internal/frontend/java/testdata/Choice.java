import gov.nasa.jpf.vm.Verify;

// A main that is local but for its choice, failing for one input: the
// trail shows the input chosen.
public class Choice {
    public static void main(String[] args) {
        int x = Verify.getInt(3, 4);
        int y = x * 2;
        assert y != 6 : "three";
    }
}
