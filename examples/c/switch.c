// switch.c: switch with fall-through, default, a GNU case range and break, on an input
// char (256 values: the explicit search enumerates them). classify() gives 'a'..'z' 1,
// '0'..'9' 2, and ' ', '\t' fall through to the same case, 3; anything else 0. The weight
// of a digit adds 10 by falling into the next case; the error is reachable only for the
// tab character, whose case falls through into the blank's and then, missing a break,
// into the digits': classify('\t') is 3 but weight('\t') is 12, and that is the
// violation: fail.
// expect: fail assert
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);

int classify(char c) {
  switch (c) {
  case 'a' ... 'z':
    return 1;
  case '0' ... '9':
    return 2;
  case ' ':
  case '\t':
    return 3;
  default:
    return 0;
  }
}

int weight(char c) {
  int w = 0;
  switch (c) {
  case '\t':
    w += 1;
  case ' ':
    w += 1;
  case '0' ... '9':
    w += 10;
    break;
  default:
    w = -1;
  }
  return w;
}

int main(void) {
  char c = __VERIFIER_nondet_char();
  int k = classify(c);
  int w = weight(c);
  if (k == 2 && w != 10)
    reach_error();
  if (k == 3 && w > 11)
    reach_error();
  return 0;
}
