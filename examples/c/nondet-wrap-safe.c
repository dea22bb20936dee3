// nondet-wrap-safe.c: unsigned wrap on an unbounded input, proved by refinement. x is any
// unsigned int; x + 1 wraps to 0 for x == UINT_MAX only, so y < x holds for that x alone,
// with y == 0: both tests are false for every input and reach_error() is unreachable.
// Predicate abstraction proves it with the values modulo 2^32, as C computes them (the
// same program with x == 4294967295u in the first test fails, with that x).
// expect: pass
// technique: cegar
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = x + 1;
  if (y < x && x != 4294967295u)
    reach_error();
  if (y < x && y != 0)
    reach_error();
  return 0;
}
