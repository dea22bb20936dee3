// data-model.c: the widths of long and unsigned long follow the data model. Under ILP32
// (the default, as in SV-COMP) long is 32 bits wide: LONG_MAX + 1 wraps to LONG_MIN (two's
// complement, as gcc's code computes it) and the first reach_error() is reached: fail.
// Under LP64 long is 64 bits wide, 2147483647 + 1 is 2147483648 and stays positive, and
// the unsigned long 4294967295 + 1 is 4294967296, not 0: pass.
// expect: fail assert
// expect with --data-model LP64: pass
// states with --data-model LP64: 9, transitions: 8
extern void reach_error(void);

int main(void) {
  long x = 2147483647;
  unsigned long u = 4294967295u;
  x = x + 1;
  u = u + 1;
  if (x < 0)
    reach_error();
  if (u == 0)
    reach_error();
  if (sizeof(long) != sizeof(int) && sizeof(long) != 8)
    reach_error();
  return 0;
}
