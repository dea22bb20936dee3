// assert.c: assert(e) of assert.h is the property too: birch checks that e holds where the
// assertion stands. max3() returns the largest of three chars except when the largest is
// the last and the first two are equal; the check finds such a case (a == b < c), where the
// assertion fails: fail. Three char inputs have 2^24 combinations together, more than the
// 2^20 birch enumerates (docs/c.md, "Inputs"): refinement finds the inputs.
// expect: fail assert
// technique: cegar
#include <assert.h>
extern char __VERIFIER_nondet_char(void);

char max3(char a, char b, char c) {
  char m = a;
  if (b > m)
    m = b;
  if (c > m && a != b)
    m = c;
  return m;
}

int main(void) {
  char a = __VERIFIER_nondet_char() % 4;
  char b = __VERIFIER_nondet_char() % 4;
  char c = __VERIFIER_nondet_char() % 4;
  char m = max3(a, b, c);
  assert(m >= a && m >= b && m >= c);
  return 0;
}
