// GNU attributes between a function's declarator and its body, which
// gcc accepts (older SV-COMP headers define functions so).
extern void abort(void);
extern void reach_error(void);
struct __attribute__((packed)) unused { int a; };
void stop(int code) __attribute__((__nothrow__)) __attribute__ ((__noreturn__)) {
  abort();
}
int twice(int x)
    __attribute__((const)) {
  return 2 * x;
}
int main() {
  if (twice(3) != 6)
    stop(1);
  return 0;
}
