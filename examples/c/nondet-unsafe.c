// nondet-unsafe.c: an unbounded input that reaches the error for one value only. x is any
// int; reach_error() is called when 1000 < x < 1003 and x is odd, that is for x == 1001.
// x has too many values to enumerate, so birch checks the program by refinement (--cegar):
// the abstract trail to the call is replayed on the program with the value the solver
// found for x, which confirms it: fail, with a trail that names the input.
// expect: fail assert
// technique: cegar
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 1000 && x < 1003) {
    if (x % 2 == 1)
      reach_error();
  }
  return 0;
}
