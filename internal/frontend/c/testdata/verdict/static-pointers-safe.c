// Pointers of static duration initialised with address constants: &g, an array's name,
// &arr[2], &st.a, a pointer field of a struct, a static local.
extern void reach_error(void);
int g = 3;
int arr[4] = {1, 2, 3, 4};
struct s { int a; int *p; } st = { 7, &g };
int *pg = &g;
int *pa = arr;
int *pe = &arr[2];
int *ps = &st.a;
int main(void) {
  static int *sp = &arr[1];
  if (*pg != 3 || *pa != 1 || *pe != 3 || *ps != 7 || *st.p != 3 || *sp != 2) reach_error();
  *st.p = 5;
  if (g != 5) reach_error();
  return 0;
}
