// A for loop that declares its counter: i < 3 is the condition and i++ the
// step (taking i++ for the condition never ran the body: a wrong verdict).
extern void reach_error(void);
int main(void) {
  int n = 0;
  for (int i = 0; i < 3; i++)
    n += 2;
  if (n != 6)
    reach_error();
  return 0;
}
