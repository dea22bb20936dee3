// Temporaries reused from statement to statement: the ?: takes one, and
// the input chosen into its variable needs none (that one stays).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int x = 20, y = 0;
  x = y ? 20 : 15;
  y = __VERIFIER_nondet_int();
  if (x + y == 3)
    reach_error();
  return 0;
}
