package heaptest;

// A hierarchy for the class table's tests (heap_test.go): an abstract
// class, an override, an inherited method, an interface default method
// and its override, a class whose only new is unreachable.
interface Named {
    default int name() { return 1; }
}

abstract class Shape {
    int id;
    abstract int area();
    int id() { return id; }
}

class Square extends Shape implements Named {
    int side;
    int area() { return side * side; }
}

class Cube extends Square {
    int depth;
    static int made;
}

class Circle extends Shape implements Named {
    int r;
    int area() { return 3 * r * r; }
    public int name() { return 2; }
}

class Unused extends Shape {
    int area() { return 0; }
}

public class Shapes {
    public static void main(String[] args) {
        Shape s = new Square();
        Shape c = new Cube();
        Shape d = new Circle();
        Cube.made++;
        int a = s.area() + c.area() + d.area();
        Named n = (Named) c;
        assert a >= 0 && n.name() == 1;
    }

    static void never() {
        new Unused();
    }
}
