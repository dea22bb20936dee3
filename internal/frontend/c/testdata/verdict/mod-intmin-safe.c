// INT_MIN % -1: its quotient 2^31 is not an int, so C11 6.5.5p6 makes the
// remainder undefined too. Without --overflow-error birch computes 0 (the
// remainder is never wrong); with it, the operation is a signed overflow.
extern void reach_error(void);
int m(int a, int b) { return a % b; }
int main(void) {
  int x = -2147483647 - 1;
  int r = m(x, -1);
  if (r != 0)
    reach_error();
  return 0;
}
