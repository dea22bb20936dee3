// signed-overflow.c: signed int arithmetic as the machine computes it. INT_MAX + 1 wraps to
// INT_MIN in two's complement (what gcc's code does; C leaves it undefined), so the sum is
// negative and the check finds nothing: pass. With --overflow-error, signed overflow is
// an error instead of wrapping, and the addition itself is the violation: fail (the
// lowering's assertion that the exact sum lies within int; it is not the unreach-call
// property, and a task with no-overflow.prp answers false on it).
// expect: pass
// expect with --overflow-error: fail assert
// states: 8, transitions: 7
extern void reach_error(void);

int add(int a, int b) { return a + b; }

int main(void) {
  int big = 2147483647;
  int sum = add(big, 1);
  if (sum != -2147483647 - 1)
    reach_error();
  return 0;
}
