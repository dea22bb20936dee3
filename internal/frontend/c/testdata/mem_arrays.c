// Arrays: locals, globals, two dimensions, initializer lists, indexing,
// an array parameter (a pointer), pointer arithmetic and difference.
int g[3] = {4, 5};
int m[2][3];
int sum(int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
int main(void) {
  int a[4] = {1, 2, [3] = 9};
  int b[2];
  int *p = a + 1;
  int *q = &a[3];
  m[1][2] = q - p;
  b[0] = *p;
  p++;
  *p += g[1];
  return sum(a, 4) + m[1][2] + b[0];
}
