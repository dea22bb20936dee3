// With Config.OverflowError, signed + - * / and unary - assert that the
// exact result lies within the type; unsigned arithmetic still wraps, and
// so do conversions.
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  unsigned int u = x;
  short s = x;
  long long ll = x;
  x = x + 1;
  x = -x;
  x = x * 3 / 2;
  u = u * 5;
  s++;
  ll = ll * ll;
  return x + u + s;
}
