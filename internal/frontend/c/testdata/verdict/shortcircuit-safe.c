// && and || do not evaluate their right operand when the left decides.
extern void reach_error(void);
int g;
int boom(void) {
  reach_error();
  return 1;
}
int bump(void) { return ++g; }
int main(void) {
  int a = 0;
  if (a && boom())
    a = 2;
  if (!a || boom())
    a = 3;
  if (bump() > 0 || boom())
    a = a + g;
  int b = (a == 4) ? 10 : boom();
  if (b != 10)
    reach_error();
  return 0;
}
