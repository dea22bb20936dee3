// The address of an object converted to an integer: birch does not model addresses, and
// the conversion is an error of the model (inconclusive as a task), never a made-up value.
int x;
int main(void) { long a = (long)&x; return a == 0; }
