// int overflow wraps to INT_MIN (two's complement, as gcc computes it).
extern void reach_error(void);
int main(void) {
  int x = 2147483647;
  x++;
  if (x < 0)
    reach_error();
  return 0;
}
