// threads-mutex.c: the counter of threads-race.c under a mutex. pthread_mutex_lock waits
// while the other thread holds the lock, so each read and write of count happen together,
// and the threads receive their increment through a pointer argument. After both joins
// count is 2 * k for every input k: pass.
// expect: pass
// states: 2032, transitions: 2535
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
extern char __VERIFIER_nondet_char(void);

int count = 0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *adder(void *arg) {
  int *inc = arg;
  pthread_mutex_lock(&lock);
  count = count + *inc;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  int k = __VERIFIER_nondet_char();
  __VERIFIER_assume(k >= 1 && k <= 3);
  pthread_t t1, t2;
  pthread_create(&t1, NULL, adder, &k);
  pthread_create(&t2, NULL, adder, &k);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  if (count != 2 * k) reach_error();
  return 0;
}
