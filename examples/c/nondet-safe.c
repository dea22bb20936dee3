// nondet-safe.c: an unbounded input. n is any int, restricted by __VERIFIER_assume to
// 0 .. 1000000; the loop counts i up to n, so i == n when it ends and reach_error() is
// unreachable. n has too many values to enumerate (2^32 before the assumption), so birch
// checks the program by refinement (--cegar): predicate abstraction proves it with
// predicates such as i <= n, found from spurious trails: pass, a proof for every input.
// expect: pass
// technique: cegar
// technique: cegar
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000000);
  int i = 0;
  while (i < n)
    i++;
  if (i != n)
    reach_error();
  return 0;
}
