// use-after-free.c: a block read after free. A freed block is no object of the model any
// more, so reading it is a null dereference of the model at the read: fail null. This is
// undefined behaviour in C, not the property (as a task: unknown).
// expect: fail null
#include <stdlib.h>
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  int *p = malloc(2 * sizeof(int));
  if (p == NULL)
    return 0;
  p[0] = 1;
  p[1] = 2;
  if (__VERIFIER_nondet_bool())
    free(p);
  int v = p[1];
  if (v != 2) reach_error();
  return 0;
}
