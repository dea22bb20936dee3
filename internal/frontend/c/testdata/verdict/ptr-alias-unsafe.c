// A pointer to x writes x, and a pointer into a copies it: reach_error is reachable.
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);
int g;
int main(void) {
  int x = 0;
  int *p = &x;
  int a[4] = {1, 2, 3};
  int *q = a + 1;
  char c = __VERIFIER_nondet_char();
  if (c > 5) {
    *p = 7;
  }
  q[1] = x;
  if (a[2] == 7 && *(q - 1) == 1) {
    reach_error();
  }
  return 0;
}
