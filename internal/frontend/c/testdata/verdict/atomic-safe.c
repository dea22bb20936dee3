// The increments in an atomic function: no update is lost.
#include <pthread.h>
extern void reach_error(void);
int count = 0;
void __VERIFIER_atomic_inc(void) { count = count + 1; }
void *worker(void *arg) {
  __VERIFIER_atomic_inc();
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
