// Statements: if, loops, switch with fallthrough and default, goto.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main() {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n < 10);
  int sum = 0, i;
  for (i = 0; i < n; i++) {
    if (i == 5)
      continue;
    if (i > 7)
      break;
    sum += i;
  }
  while (sum > 10)
    sum -= 10;
  do {
    sum++;
  } while (sum < 3);
  switch (n) {
  case 1:
    sum = 1;
  case 2:
    sum += 2;
    break;
  case 3 ... 5:
    sum = 0;
    break;
  default:
    sum = -1;
  }
  if (sum == 100)
    goto fail;
  return 0;
fail:
  reach_error();
  return 1;
}
