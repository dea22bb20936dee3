// A signed overflow in a constant expression: with --overflow-error it is
// the violation (cc folds 1073741824 * 2 to its wrapped value, so the
// lowering must fold operator by operator to see it); without the flag
// the product wraps to INT_MIN, as gcc -fwrapv computes it, and the
// program passes.
int main(void) {
  int x = 1073741824 * 2;
  if (x != -2147483647 - 1)
    return 1;
  return 0;
}
