// long long values in memory: an address-taken local, an array element,
// a struct field, a heap cell. Their type is BIR's int64, a pointer's
// too: a store into such a cell was taken for a pointer's ("an integer
// converted to a pointer", inconclusive).
#include <stdlib.h>
extern void reach_error(void);
struct S { long long a; int b; };
long long ga[2] = {5, 6};
int main(void) {
  long long m = 32767;
  long long *q = &m;
  *q += 1;
  struct S s = {7, 8};
  s.a = s.a * 3;
  ga[1] = m - 1;
  long long *h = malloc(2 * sizeof(long long));
  if (h == 0) return 0;
  h[0] = -9000000000LL;
  h[1] = h[0] + 1;
  if (m != 32768 || s.a != 21 || ga[1] != 32767 || h[1] != -8999999999LL) reach_error();
  free(h);
  return 0;
}
