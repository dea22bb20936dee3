// nondet-wrap-unsafe.c: unsigned wrap on an unbounded input, checked by refinement. x is
// any unsigned int; y = x - 4000000000u wraps modulo 2^32, and y < 3 holds exactly for x in
// 4000000000 .. 4000000002, where reach_error() is called. The path formula computes y
// modulo 2^32 as the program does; the solver finds such an x, and the trail replays on
// the program with it: fail, confirmed.
// expect: fail assert
// technique: cegar
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = x - 4000000000u;
  if (y < 3)
    reach_error();
  return 0;
}
