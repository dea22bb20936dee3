// Freeing a block twice: a null dereference of the model (double free).
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  if (p == NULL)
    return 0;
  free(p);
  free(p);
  return 0;
}
