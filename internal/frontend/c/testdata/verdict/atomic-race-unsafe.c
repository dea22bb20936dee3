// The increments in a function that is not atomic: an update is lost.
#include <pthread.h>
extern void reach_error(void);
int count = 0;
void inc(void) { count = count + 1; }
void *worker(void *arg) {
  inc();
  return NULL;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, NULL, worker, NULL);
  pthread_create(&t2, NULL, worker, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  if (count != 2) reach_error();
  return 0;
}
