// abort.c: abort() ends the program: nothing after it runs. The input n is a char; every
// negative n aborts before the reach_error() that a negative n would reach, and for the
// others the check before it fails. reach_error() is unreachable: pass.
// expect: pass
// states: 1155, transitions: 1281
#include <stdlib.h>
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);

void check(char n) {
  if (n < 0)
    abort();
}

int main(void) {
  char n = __VERIFIER_nondet_char();
  check(n);
  if (n < 0)
    reach_error();
  return 0;
}
