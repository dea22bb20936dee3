// long is 32 bits wide under ILP32 (wraps) and 64 under LP64 (does not).
extern void reach_error(void);
int main(void) {
  long x = 2147483647;
  x = x + 1;
  if (x < 0)
    reach_error();
  return 0;
}
