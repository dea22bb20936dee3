// Two threads increment a shared counter without a lock: an update is lost.
#include <pthread.h>
extern void reach_error(void);
int count = 0;
pthread_mutex_t m;
void *worker(void *arg) {
  count = count + 1;
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
