// A void main, printf (no effect on the state) and __builtin_popcount.
extern int printf(const char *, ...);
extern void reach_error(void);
unsigned int g = 0xf0f0;

void main(void) {
  int n = __builtin_popcount(g);
  printf("%d bits\n", n++);
  if (n != 9)
    reach_error();
  return;
}
