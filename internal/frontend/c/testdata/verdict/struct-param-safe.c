// Structs passed by value: the callee works on a copy (its changes do not reach the
// caller's struct), through the fields or through a pointer into the copy.
extern void reach_error(void);
struct pt { int x, y; };
int dist(struct pt a, struct pt b) { a.x = a.x - b.x; return a.x + (a.y - b.y); }
int addr(struct pt p) { int *q = &p.y; *q = 9; return p.y; }
int main(void) {
  struct pt p = {5, 7}, q = {1, 2};
  struct pt *pp = &q;
  if (dist(p, *pp) != 9) reach_error();
  if (p.x != 5) reach_error();
  if (addr(q) != 9 || q.y != 2) reach_error();
  return 0;
}
