// Temporaries reused from statement to statement: an input chosen into
// its variable leaves none, and a later ?: takes one.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int x = 20, y = 0;
  while (1) {
    y = __VERIFIER_nondet_int();
    if (y)
      y = 1;
    y++;
    if (y > 1)
      break;
    x -= x > 0 ? 5 : 0;
  }
  if (x > 20)
    reach_error();
  return 0;
}
