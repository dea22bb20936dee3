// unsigned char wraps from 255 to 0: the loop runs 10 times.
extern void reach_error(void);
int main(void) {
  unsigned char c = 250;
  int n = 0;
  while (c != 4) {
    c++;
    n++;
  }
  if (n != 10)
    reach_error();
  return 0;
}
