// error-label.c: an ERROR: label is the property of SV-COMP's unreach-label tasks (birch's
// default: the label ERROR is the property unless a task's property says otherwise). The
// input picks a mode 0..3 (assumed); mode 2 steps j to 4 and jumps to ERROR: fail.
// expect: fail assert
// technique: cegar
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void) {
  int mode = __VERIFIER_nondet_int();
  __VERIFIER_assume(mode >= 0 && mode <= 3);
  int j = mode * 2;
  if (j == 4)
    goto ERROR;
  return 0;
ERROR:
  return 1;
}
