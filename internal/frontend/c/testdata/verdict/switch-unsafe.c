// A switch whose case 2 falls through into case 3.
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char k = __VERIFIER_nondet_uchar();
  int r = 0;
  switch (k % 4) {
  case 2:
    r = 5;
  case 3:
    r += 1;
    break;
  default:
    r = 1;
  }
  if (r == 6)
    reach_error();
  return 0;
}
