// recursion.c: functions, recursion and mutual recursion, parameters and results.
// fact(6) is 720, fib(10) is 55 by the doubly recursive definition, gcd(84, 36) is 12 by
// Euclid's recursive algorithm, and is_even/is_odd decide 7 by mutual recursion. Every
// result is the one C computes, so neither reach_error() call is reachable: pass, by the
// explicit search (the program reads no input).
// expect: pass
// states: 807, transitions: 806
extern void reach_error(void);

int fact(int n) {
  if (n <= 1)
    return 1;
  return n * fact(n - 1);
}

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

unsigned gcd(unsigned a, unsigned b) {
  if (b == 0)
    return a;
  return gcd(b, a % b);
}

int is_odd(int n);
int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

int main(void) {
  if (fact(6) != 720 || fib(10) != 55)
    reach_error();
  if (gcd(84, 36) != 12 || is_even(7) || !is_odd(7))
    reach_error();
  return 0;
}
