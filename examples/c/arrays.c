// arrays.c: fixed-size arrays. A global array starts at zeros except where its initializer
// list says (designators too), a two-dimensional local is filled row by row, and an array
// passed to a function is a pointer to its first element. Each element is a cell of the
// array's object; the values are fixed: pass.
// expect: pass
// states: 101, transitions: 100
extern void reach_error(void);

int primes[6] = {2, 3, 5, [4] = 11};

int total(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

int main(void) {
  int m[3][4];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      m[i][j] = i * 4 + j;
  if (m[2][3] != 11 || total(m[1], 4) != 22) reach_error();
  if (total(primes, 6) != 21 || primes[3] != 0) reach_error();
  return 0;
}
