// memset of five ints into an array of four: a write outside the array (undefined).
#include <string.h>
int main(void) { int a[4]; memset(a, 0, 5 * sizeof(int)); return a[0]; }
