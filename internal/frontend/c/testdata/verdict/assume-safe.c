// __VERIFIER_assume restricts a nondeterministic char.
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
int main(void) {
  char c = __VERIFIER_nondet_char();
  __VERIFIER_assume(c >= 'a' && c <= 'z');
  int d = c - 'a';
  if (d < 0 || d > 25)
    reach_error();
  return 0;
}
