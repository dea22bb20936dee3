// Recursion: fib(10) is 55, and 10! fits in an int.
extern void reach_error(void);
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int fact(int n) {
  if (n <= 1)
    return 1;
  return n * fact(n - 1);
}
int main(void) {
  if (fib(10) != 55 || fact(10) != 3628800)
    reach_error();
  return 0;
}
