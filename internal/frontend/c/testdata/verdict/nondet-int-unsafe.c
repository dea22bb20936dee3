// An int input: checked by refinement (too many values to enumerate).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 10 && x < 20) {
    if (x == 15)
      reach_error();
  }
  return 0;
}
