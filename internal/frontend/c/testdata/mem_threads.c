// Threads: pthread_create and pthread_join, a mutex, an atomic function
// and an atomic section; each access to shared memory is a step.
#include <pthread.h>
int x, y;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void __VERIFIER_atomic_swap(void) { int t = x; x = y; y = t; }
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void *worker(void *arg) {
  int *p = arg;
  pthread_mutex_lock(&m);
  x = x + *p;
  pthread_mutex_unlock(&m);
  __VERIFIER_atomic_swap();
  return 0;
}
int main(void) {
  pthread_t t;
  int one = 1;
  pthread_create(&t, 0, worker, &one);
  __VERIFIER_atomic_begin();
  y = y + 1;
  __VERIFIER_atomic_end();
  pthread_join(t, 0);
  return x + y;
}
