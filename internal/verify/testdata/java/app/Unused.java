package app;

// no class of the program refers to Unused
class Unused {
    static int f = 1;
}
