// A function with a local array, called twenty times: the array is used only through its
// elements, so it is a local value array of the call and the heap does not fill up.
extern void reach_error(void);
int second(int k) {
  int a[2] = {k, k + 1};
  return a[1];
}
int main(void) {
  int s = 0;
  for (int i = 0; i < 20; i++)
    s += second(i);
  if (s != 210) reach_error();
  return 0;
}
