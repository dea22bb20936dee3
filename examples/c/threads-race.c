// threads-race.c: two threads add to a shared counter without a lock. count = count + k is
// a read and a write, which another thread's steps may separate: both threads read 0, both
// write k, and one addition is lost. main joins both threads, then finds count != 2 * k:
// reach_error() is reachable (fail), for every input k from 1 to 3.
// expect: fail assert
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
extern char __VERIFIER_nondet_char(void);

int count = 0;
int k;

void *adder(void *arg) {
  count = count + k;
  return NULL;
}

int main(void) {
  k = __VERIFIER_nondet_char();
  __VERIFIER_assume(k >= 1 && k <= 3);
  pthread_t t1, t2;
  pthread_create(&t1, NULL, adder, NULL);
  pthread_create(&t2, NULL, adder, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  if (count != 2 * k) reach_error();
  return 0;
}
