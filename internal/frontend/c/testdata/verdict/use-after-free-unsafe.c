// Reading a freed block: a null dereference of the model (use after free).
#include <stdlib.h>
int main(void) {
  int *p = malloc(2 * sizeof(int));
  if (p == NULL)
    return 0;
  p[0] = 1;
  free(p);
  return p[0];
}
