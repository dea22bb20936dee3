// The same increments under a mutex: the count is 2.
#include <pthread.h>
extern void reach_error(void);
int count = 0;
pthread_mutex_t m;
void *worker(void *arg) {

  pthread_mutex_lock(&m);

  count = count + 1;

  pthread_mutex_unlock(&m);

  return NULL;
}
int main(void) {
  pthread_t t1, t2;
  pthread_mutex_init(&m, NULL);
  pthread_create(&t1, NULL, worker, NULL);
  pthread_create(&t2, NULL, worker, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  if (count != 2) reach_error();
  return 0;
}
