// A local array declared in a loop's body: its object is made once and reused at each
// iteration, so twenty iterations reach no bound of the heap.
extern void reach_error(void);
int main(void) {
  int s = 0;
  for (int i = 0; i < 20; i++) {
    int b[3];
    b[2] = i;
    int *p = &b[1];
    s += p[1];
  }
  if (s != 190) reach_error();
  return 0;
}
