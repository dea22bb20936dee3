// array-out-of-bounds.c: writing outside an array is undefined behaviour, which birch
// reports as the model's index-out-of-bounds error where it happens (i % 5 is 4 for
// i = 4): fail index. reach_error() is unreachable; as an unreach-call task the answer is
// unknown, never true, since the program's behaviour after the write is undefined.
// expect: fail index
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  int a[4] = {0};
  unsigned char i = __VERIFIER_nondet_uchar();
  a[i % 5] = 1;
  if (a[0] > 1) reach_error();
  return 0;
}
