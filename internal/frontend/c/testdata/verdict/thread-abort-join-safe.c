// A thread that aborts ends the whole program: the join never returns,
// so the call of reach_error after it is unreachable (BIR's exit ended
// only the thread, and the join went on: a wrong violation).
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);
int g;
void *t(void *arg) {
  g = 1;
  abort();
  return 0;
}
void *u(void *arg) {
  exit(0);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  if (__VERIFIER_nondet_bool()) {
    pthread_join(a, 0);
  } else {
    pthread_join(b, 0);
  }
  reach_error();
  return 0;
}
