package app;

import gov.nasa.jpf.vm.Verify;

// The class path tests' program (javac_test.go, java_test.go): Main
// reaches Helper, Shape and Circle, not Unused.
public class Main {
    static Shape shape;

    public static void main(String[] args) {
        shape = new Circle(Verify.getInt(1, 3));
        assert Helper.twice(shape.size()) < 10;
    }
}

interface Shape {
    int size();
}

class Circle implements Shape {
    final int r;

    Circle(int r) {
        this.r = r;
    }

    public int size() {
        return r;
    }
}
