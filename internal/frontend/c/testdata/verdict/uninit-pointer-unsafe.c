// Comparing an uninitialized pointer: its value is indeterminate, and reading it is an
// error of the model (undefined behaviour), not a comparison with a made-up value.
int x;
int main(void) {
  int *p;
  if (p == &x) return 1;
  return 0;
}
