// pointer-alias.c: two names for one object. p points to x, so writing *p changes x; q
// points into the array a, so q[1] is a[2]. When the input c is above 5, *p = 7 makes x 7,
// which q[1] = x copies into a[2]: reach_error() is reachable (the search finds c = 6).
// expect: fail assert
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
  int x = 0;
  int *p = &x;
  int a[4] = {1, 2, 3};
  int *q = a + 1;
  char c = __VERIFIER_nondet_char();
  if (c > 5)
    *p = 7;
  q[1] = x;
  if (a[2] == 7 && *(q - 1) == 1)
    reach_error();
  return 0;
}
