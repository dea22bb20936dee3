// exit.c: exit(status) ends the program from any function, with any status. The loop
// counts i up; at 5 the function stop() calls exit(0), before the reach_error() that
// i == 6 would reach: pass.
// expect: pass
// states: 37, transitions: 36
#include <stdlib.h>
extern void reach_error(void);

void stop(int i) {
  if (i == 5)
    exit(0);
}

int main(void) {
  for (int i = 0; i < 10; i++) {
    stop(i);
    if (i == 6)
      reach_error();
  }
  return 0;
}
