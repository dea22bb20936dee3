// An array index outside the array: undefined behaviour (index-out-of-bounds), not the property.
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  int a[4];
  unsigned char i = __VERIFIER_nondet_uchar();
  a[i % 5] = 1;
  return 0;
}
