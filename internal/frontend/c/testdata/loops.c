// for with a declaration; break in a loop condition's statement
// expression leaves that loop.
extern void reach_error(void);
int main() {
  int count = 0;
  for (int i = 0; i < 6; i++) {
    if (i >= 5)
      count++;
  }
  int a = 5;
  while (1) {
    while (({ break; a++; })) {
    }
    a = a + 1;
    break;
  }
  if (count != 1 || a != 6)
    reach_error();
  return 0;
}
