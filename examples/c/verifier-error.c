// verifier-error.c: __VERIFIER_error(), the error function of older SV-COMP tasks, is the
// property as reach_error() is (both by default). The bool input picks the branch; on the
// true branch the counter reaches 3 and __VERIFIER_error() is called: fail.
// expect: fail assert
extern void __VERIFIER_error(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  int n = 0;
  if (__VERIFIER_nondet_bool())
    n = 3;
  while (n > 0 && n < 3)
    n++;
  if (n == 3)
    __VERIFIER_error();
  return 0;
}
