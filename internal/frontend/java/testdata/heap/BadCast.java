package badcast;

// A cast to the wrong class: ClassCastException, uncaught: a violation
// (java -ea too).
class Animal { int legs; }
class Dog extends Animal { int barks; }
class Cat extends Animal { }

public class BadCast {
    static Animal pick(int i) {
        if (i == 0) {
            return new Dog();
        }
        return new Cat();
    }

    public static void main(String[] args) {
        Dog d = (Dog) pick(0);
        d.barks = 1;
        Dog e = (Dog) pick(1); // fails here
        e.barks = 2;
    }
}
