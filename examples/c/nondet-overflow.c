// nondet-overflow.c: signed overflow on an unbounded input, checked by refinement. x is any
// positive int; x + 1 overflows for x == INT_MAX only. By default it wraps to INT_MIN (two's
// complement), so y is negative exactly then, and the program tests for that case before
// calling reach_error() on a y that did not grow: unreachable, pass. With --overflow-error
// the addition itself is the violation for x == INT_MAX, which the refinement finds and
// confirms: fail (the overflow check, not a property position).
// expect: pass
// expect with --overflow-error: fail assert
// technique: cegar
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0);
  int y = x + 1;
  if (y < 0)
    return 1;
  if (y <= x)
    reach_error();
  return 0;
}
