// pointers.c: pointers to locals and globals. swap() exchanges two ints through their
// addresses (x and y become objects of C's memory because their address is taken), p walks
// an array by pointer arithmetic up to one past its end, and pointer comparison and null
// behave as in C. The values are fixed, so the search has one path; every check holds: pass.
// expect: pass
// states: 40, transitions: 39
extern void reach_error(void);

int g = 5;

void swap(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

int main(void) {
  int x = 1, y = 2;
  swap(&x, &y);
  if (x != 2 || y != 1) reach_error();
  int *q = &g;
  *q = *q + x;
  if (g != 7) reach_error();
  int a[3] = {10, 20, 30};
  int sum = 0;
  for (int *p = a; p != a + 3; p++)
    sum += *p;
  if (sum != 60) reach_error();
  int *n = 0;
  if (n != 0 || q == n || &a[2] - a != 2) reach_error();
  return 0;
}
