// loops.c: while, do-while and for loops (a for that declares its counter, one without a
// condition left by break), with continue and break. The loops compute the number of odd
// values in 0..9 (5), a do-while that runs once although its condition is false at once,
// and the first square above 50 (64); each result is checked and holds: pass.
// expect: pass
// states: 64, transitions: 63
extern void reach_error(void);

int main(void) {
  int odd = 0, once = 0, sq = 0, j = 0;
  for (int i = 0; i < 10; i++) {
    if (i % 2 == 0)
      continue;
    odd++;
  }
  do {
    once++;
  } while (once > 5);
  while (1) {
    j++;
    if (j * j > 50)
      break;
  }
  for (;;) {
    sq = j * j;
    break;
  }
  if (odd != 5 || once != 1 || sq != 64)
    reach_error();
  return 0;
}
