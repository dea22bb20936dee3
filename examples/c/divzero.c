// divzero.c: undefined behaviour is a runtime error of the model, not the property. The
// input d is any char; for d == 0 the division has no value in C. birch check reports
// it as the violation it finds (a division by zero at its C position): fail divzero. As a
// task of unreach-call (divzero.yml), whose property is the call of reach_error() only,
// the same check answers unknown, never false: the program's behaviour after the division
// is undefined, and reach_error() itself is unreachable (100 / d is at most 100).
// expect: fail divzero
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
  char d = __VERIFIER_nondet_char();
  int q = 100 / d;
  if (q > 100)
    reach_error();
  return 0;
}
