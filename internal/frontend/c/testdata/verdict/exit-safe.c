// exit ends the program before the error.
extern void reach_error(void);
extern void exit(int);
int main(void) {
  int x = 3;
  if (x == 3)
    exit(0);
  reach_error();
  return 0;
}
