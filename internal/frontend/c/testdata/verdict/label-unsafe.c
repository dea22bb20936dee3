// An ERROR label reached through goto (SV-COMP's unreach-label).
extern short __VERIFIER_nondet_short(void);
int main(void) {
  short s = __VERIFIER_nondet_short();
  if (s > 32000)
    goto ERROR;
  return 0;
ERROR:
  return 1;
}
