// Structs: fields, nested structs, struct assignment (a copy), pointers
// to structs and to their fields, a pointer-to-pointer.
struct pt { int x, y; };
struct box { struct pt lo, hi; unsigned char tag; };
struct box gb;
int area(struct box *b) { return (b->hi.x - b->lo.x) * (b->hi.y - b->lo.y); }
int main(void) {
  struct box b = { {0, 0}, {2, 3}, 7 };
  struct pt *hp = &b.hi;
  int *xp = &hp->x;
  int **xpp = &xp;
  **xpp = 4;
  gb = b;
  gb.lo.y = -1;
  return area(&gb) + (hp != 0) + (&b.lo == &b.lo);
}
