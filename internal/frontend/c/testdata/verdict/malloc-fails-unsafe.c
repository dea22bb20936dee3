// Two blocks compare equal only when both allocations fail and return null: malloc may
// fail, as C's may, so reach_error is reachable.
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  int *p1 = malloc(sizeof(int));
  int *p2 = malloc(sizeof(int));
  if (p1 == p2)
    reach_error();
  return 0;
}
