// unsigned-wrap.c: unsigned arithmetic is modulo 2^width. 0u - 1 is UINT_MAX; an
// unsigned char counts 250 .. 255, 0 .. 4 in ten increments; an unsigned short product
// wraps modulo 65536 (300 * 300 = 90000 = 65536 + 24464); the loop that counts an
// unsigned down past 0 ends because the wrapped value is larger than the bound. Each
// value is the one C computes, so reach_error() is unreachable: pass.
// expect: pass
// states: 59, transitions: 58
extern void reach_error(void);

int main(void) {
  unsigned int u = 0;
  unsigned char c = 250;
  unsigned short s = 300;
  unsigned int n = 0;

  u = u - 1;
  if (u != 4294967295u)
    reach_error();
  for (int i = 0; i < 10; i++)
    c++;
  if (c != 4)
    reach_error();
  s = s * s;
  if (s != 24464)
    reach_error();
  for (unsigned k = 3; k <= 3; k--)
    n++;
  if (n != 4)
    reach_error();
  return 0;
}
