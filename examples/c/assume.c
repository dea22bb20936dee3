// assume.c: __VERIFIER_assume(e) keeps only the executions in which e holds. a and b are
// any unsigned chars (256 values each: small enough for the explicit search, which tries
// all 65536 pairs); the assumptions keep those with a < b and b - a even. Then a + b is
// even, so the midpoint (a + b) / 2 is exact and lies strictly between a and b (b - a is
// at least 2). reach_error() is unreachable: pass. Without the second assumption, a = 0,
// b = 1 would reach it.
// expect: pass
// states: 147203, transitions: 163457
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int cond);

int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar();
  unsigned char b = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(a < b);
  __VERIFIER_assume((b - a) % 2 == 0);
  int mid = (a + b) / 2;
  if (mid <= a || mid >= b || 2 * mid != a + b)
    reach_error();
  return 0;
}
