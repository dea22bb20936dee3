// Temporaries reused from statement to statement: the ?: before the loop
// takes one, an input chosen into its variable needs none (that one stays).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int x = 20, y = 0;
  x = y ? 20 : 15;
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
