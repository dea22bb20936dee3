// An int passed to each thread as a void * and converted back: (void *)i and (int)arg give
// i again, as gcc's code does; a non-constant 0 converted to a pointer is null.
#include <pthread.h>
extern void reach_error(void);
int sum;
pthread_mutex_t m;
void *thr(void *arg) {
  int k = (int)arg;
  pthread_mutex_lock(&m);
  sum += k;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, thr, (void *)i);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  if (sum != 3) reach_error();
  void *z = (void *)(sum - 3);
  if (z != 0) reach_error();
  return 0;
}
