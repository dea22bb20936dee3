// atomic.c: SV-COMP's atomic functions. A function whose name starts with
// __VERIFIER_atomic_ runs without any other thread moving in between, so the increment in
// __VERIFIER_atomic_add is not lost as in threads-race.c; the body of main's
// __VERIFIER_atomic_begin() ... __VERIFIER_atomic_end() is atomic too. pass.
// expect: pass
// states: 77, transitions: 94
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern _Bool __VERIFIER_nondet_bool(void);

int count = 0;

void __VERIFIER_atomic_add(int k) { count = count + k; }

void *adder(void *arg) {
  __VERIFIER_atomic_add(1);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, adder, NULL);
  int extra = __VERIFIER_nondet_bool();
  __VERIFIER_atomic_begin();
  count = count + extra;
  __VERIFIER_atomic_end();
  pthread_join(t, NULL);
  if (count != 1 + extra) reach_error();
  return 0;
}
