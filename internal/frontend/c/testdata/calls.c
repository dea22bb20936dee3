// Functions, recursion, unprototyped parameters and nondeterministic
// inputs of every width; an ERROR label and assert.
extern unsigned int __VERIFIER_nondet_uint(void);
extern char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern long __VERIFIER_nondet_long(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);

int fib(int n) {
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

void check(int cond) {
  if (!cond) {
  ERROR:
    abort();
  }
}

int main() {
  unsigned int u = __VERIFIER_nondet_uint();
  char ch = __VERIFIER_nondet_char();
  _Bool b = __VERIFIER_nondet_bool();
  long l = __VERIFIER_nondet_long();
  check(fib(5) == 5);
  if (u + ch + b + l == 3)
    ((u > 0) ? (void)0 : __assert_fail("u > 0", "calls.c", 30, "main"));
  return 0;
}
