// The heap: malloc of a constant and of a computed size, calloc, free,
// null and a pointer returned by a function.
#include <stdlib.h>
struct node { int v; struct node *next; };
struct node *push(struct node *h, int v) {
  struct node *n = malloc(sizeof *n);
  n->v = v;
  n->next = h;
  return n;
}
int main(void) {
  unsigned k = 3;
  int *buf = malloc(k * sizeof(int));
  int *z = calloc(2, sizeof(int));
  struct node *h = push(NULL, 1);
  h = push(h, z[1]);
  buf[2] = h->next->v;
  free(buf);
  free(z);
  while (h) {
    struct node *t = h->next;
    free(h);
    h = t;
  }
  return 0;
}
