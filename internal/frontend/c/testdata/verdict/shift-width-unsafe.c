// A shift by the width of its (promoted) type or more is undefined
// (C11 6.5.7p3): gcc on x86 masks the count (1 << 40 is 256 there), BIR
// would compute it on 64 bits (0 after the store). birch reports it.
extern void reach_error(void);
int sh(int a, int n) { return a << n; }
int main(void) {
  int r = sh(1, 40);
  if (r == 12345)
    reach_error();
  return 0;
}
