// The error function called from a macro's expansion, as many SV-COMP
// programs do: the position of the call has the column of the
// preprocessed line, where the C text names something else (assert).
// The answer of the unreach-call task is false (it was unknown: the C
// text at the position was not the call of reach_error).
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
#undef assert
#define assert(e) if (!(e)) ERROR: reach_error()
int main(void) {
  unsigned char x = __VERIFIER_nondet_uchar();
  assert(x != 200);
  return 0;
}
