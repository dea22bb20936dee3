// pthread_exit ends the thread where it stands: the store after it never happens, and
// pthread_join sees the thread terminated.
#include <pthread.h>
extern void reach_error(void);
int x;
void *t(void *a) { x = 1; pthread_exit(NULL); x = 2; return NULL; }
int main(void) {
  pthread_t h;
  pthread_create(&h, NULL, t, NULL);
  pthread_join(h, NULL);
  if (x != 1) reach_error();
  return 0;
}
