// globals.c: globals (zero-initialized and with constant initializers), locals, a local
// that shadows a global and a block-local that shadows a local, static locals of a
// function kept across its calls. count() returns 1, 2, 3 on its three calls; the global
// total sums them (6); the shadowing locals never change the globals they hide. So the
// final checks all hold: pass, by the explicit search.
// expect: pass
// states: 49, transitions: 48
extern void reach_error(void);

int total;            // 0
int limit = 3;
unsigned char flags = 0x0f;

int count(void) {
  static int calls;   // 0, kept across calls
  calls++;
  return calls;
}

int main(void) {
  int limit = 100;    // hides the global limit
  for (int i = 0; i < 3; i++) {
    int total = -1;   // hides the global total inside the loop body
    total = count();
    flags = flags | (unsigned char)(1 << (4 + i));
    (void)total;
    limit--;
  }
  for (int i = 0; i < 3; i++)
    total += i + 1;
  if (total != 6 || limit != 97 || flags != 0x7f)
    reach_error();
  if (count() != 4)
    reach_error();
  return 0;
}
