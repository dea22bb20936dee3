// memset of whole arrays, structs and fields (0, and bytes 255 and -1 in each byte), memcpy
// of a struct and of an array: the values are those gcc's code gives.
#include <string.h>
extern void reach_error(void);
struct s { int a; char b; int *p; unsigned short u[2]; };
int main(void) {
  int a[4];
  struct s v, w;
  memset(a, 0, sizeof(a));
  memset(&v, 0, sizeof v);
  memset(v.u, 255, sizeof v.u);
  if (a[3] != 0 || v.p != 0 || v.b != 0 || v.u[1] != 65535) reach_error();
  memset(a, -1, 2 * sizeof(int));
  if (a[1] != -1 || a[2] != 0) reach_error();
  memcpy(&w, &v, sizeof(struct s));
  if (w.u[0] != 65535 || w.a != 0) reach_error();
  int b[4];
  memcpy(b, a, sizeof a);
  if (b[0] != -1 || b[3] != 0) reach_error();
  return 0;
}
