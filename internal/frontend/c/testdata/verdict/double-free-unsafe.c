// Freeing a block twice: a null dereference of the model (double free).
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  free(p);
  free(p);
  return 0;
}
