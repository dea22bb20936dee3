// structs.c: structs and their fields, a struct inside a struct, struct assignment (which
// copies every field: changing the copy leaves the original alone), -> through a pointer,
// and a pointer to a field. The values are fixed: pass.
// expect: pass
// states: 19, transitions: 18
extern void reach_error(void);

struct point { int x, y; };
struct rect { struct point lo, hi; };

int width(const struct rect *r) { return r->hi.x - r->lo.x; }

int main(void) {
  struct rect r = { {1, 2}, {4, 6} };
  struct rect c;
  c = r;
  c.hi.x = 10;
  int *py = &c.lo.y;
  *py = 0;
  if (width(&r) != 3 || width(&c) != 9) reach_error();
  if (r.lo.y != 2 || c.lo.y != 0) reach_error();
  return 0;
}
