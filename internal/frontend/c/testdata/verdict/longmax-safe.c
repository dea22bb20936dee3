// LONG_MAX of limits.h is long's largest value under the data model (ILP32 here, also
// when the host preprocesses for itself: it was the host's 2^63 - 1, which became -1).
#include <limits.h>
extern void reach_error(void);
int main(void) {
  long x = LONG_MAX;
  unsigned long u = ULONG_MAX;
  if (sizeof(long) == 4 && (x != 2147483647 || u != 4294967295u || LONG_MIN != -2147483647 - 1))
    reach_error();
  return 0;
}
