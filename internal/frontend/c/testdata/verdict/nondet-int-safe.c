// An int input: checked by refinement (too many values to enumerate).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 10)
    y = 1;
  if (x > 10 && y == 0)
    reach_error();
  return 0;
}
