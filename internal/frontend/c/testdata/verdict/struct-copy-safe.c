// Nested structs, struct assignment, a global struct and a 2-dimensional array.
extern void reach_error(void);
struct point { int x; int y; };
struct seg { struct point a, b; char tag; };
struct seg g;
int grid[3][4];
int main(void) {
  struct seg s = { {1, 2}, {3, 4}, 'x' };
  struct point p;
  struct point *pp = &s.b;
  p = s.a;
  pp->y = p.x + 10;
  g = s;
  grid[2][3] = g.b.y;
  int (*row)[4] = grid + 2;
  if ((*row)[3] != 11) reach_error();
  if (s.tag != 'x') reach_error();
  return 0;
}
