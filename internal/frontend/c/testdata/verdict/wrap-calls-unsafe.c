// Refinement confirms a violation that needs C's wrapping: 9 * a - 4 == 89
// has no integer solution, only one modulo 2^32 (a == -1431655755), whose low
// byte is 181; the input comes from a function called twice, so the replay
// gives each call's choice its own value.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int get(void) { return __VERIFIER_nondet_int(); }

int f(int x) {
  int t = x * 3;
  return t - 1;
}

int main(void) {
  int a = get();
  int b = get();
  int s = f(f(a));
  unsigned char c = a;
  if (s == 89 && c == 181 && b == -5)
    reach_error();
  return 0;
}
